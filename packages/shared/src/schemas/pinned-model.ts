import { z } from 'zod';
import { EMBED_FLAGS } from '../embed.ts';
import { MSG } from '../messages.ts';

/**
 * Models pinned for offline use (issue 8, section 3): the offline copy a device downloads when a user
 * pins a model, and the views made offline that the device sends when it is back online.
 */

/** A view made offline is counted within this many days; an older one is refused (and dropped). */
export const OFFLINE_VIEW_MAX_AGE_DAYS = 8;
/** Device clocks drift: a view time up to this far in the server's future is accepted. */
export const OFFLINE_VIEW_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** The device's key of one offline view (a random UUID or base64url id). */
export const OFFLINE_VIEW_KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
/** A device's own id (random, kept in its browser storage) and a copy id the server issued: base64url. */
export const OFFLINE_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_ID = 2_147_483_647;

const deviceId = z.string().regex(OFFLINE_ID_PATTERN, { error: MSG.offlineDeviceIdRule });

/** POST /model/offline-copy: the model to keep and the device keeping it (the copy is bound to both). */
export const OfflineCopyRequest = z.strictObject({
  id: z.number().int().min(1).max(MAX_ID),
  deviceId,
});
export type OfflineCopyRequest = z.input<typeof OfflineCopyRequest>;

/**
 * POST /model/offline-view: one view made offline, `viewedAt` an ISO date-time with offset, made with
 * the offline copy `copyId` the server issued to this user and device (`deviceId`) for model `id`.
 */
export const OfflineViewRequest = z.strictObject({
  id: z.number().int().min(1).max(MAX_ID),
  key: z.string().regex(OFFLINE_VIEW_KEY_PATTERN, { error: MSG.offlineViewKeyRule }),
  copyId: z.string().regex(OFFLINE_ID_PATTERN, { error: MSG.offlineCopyIdRule }),
  deviceId,
  viewedAt: z.iso
    .datetime({ offset: true })
    .refine((at) => Date.parse(at) <= Date.now() + OFFLINE_VIEW_CLOCK_SKEW_MS, {
      error: MSG.offlineViewInFuture,
    })
    .refine((at) => Date.parse(at) >= Date.now() - OFFLINE_VIEW_MAX_AGE_DAYS * DAY_MS, {
      error: MSG.offlineViewTooOld(OFFLINE_VIEW_MAX_AGE_DAYS),
    }),
});
export type OfflineViewRequest = z.input<typeof OfflineViewRequest>;

/**
 * The answer of POST /model/offline-view: `counted` says whether this key's view was counted (now or by
 * an earlier call with the same key); `duplicate` that an earlier call had already recorded it. A view
 * the server does not honour (a copy it did not issue to this user, device and model; a view before the
 * copy was issued; a second view in a view window already counted) is answered `counted: false`, and
 * the device drops it like any answered view.
 */
export const OfflineViewAnswer = z.strictObject({
  counted: z.boolean(),
  duplicate: z.boolean(),
});
export type OfflineViewAnswer = z.output<typeof OfflineViewAnswer>;

/** POST /model/offline-copy { id, deviceId }: what a device needs to keep a model and open it without network. */
export const OfflineCopy = z.strictObject({
  id: z.number().int(),
  /** The copy's id, bound to the user, the device and the model: sent with each view made offline. */
  copyId: z.string(),
  name: z.string(),
  urlModelName: z.string(),
  version: z.number().int(),
  /** A short-lived signed URL of the .glb (the same the viewer gets), downloaded once by the device. */
  fileUrl: z.string(),
  /** The viewer host's origin: the device caches its app and frames it offline. */
  viewerOrigin: z.string(),
  /** The portal viewer's fixed feature set. */
  settings: z.array(z.enum(EMBED_FLAGS)),
  branding: z.strictObject({
    backgroundColor: z.string(),
    primaryColor: z.string(),
    modelBgLogo: z.string().nullable(),
    modelLoadingLogo: z.string().nullable(),
  }),
});
export type OfflineCopy = z.output<typeof OfflineCopy>;
