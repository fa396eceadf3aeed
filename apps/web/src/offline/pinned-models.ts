import { MSG } from '@helix/shared';
import { OfflineCopy } from '@helix/shared/schemas/pinned-model';
import { tenantApi } from '../api/client';
import type { Model } from '../models/models.api';
import { appStore, sessionUserAtom } from '../session/session.atoms';
import { deviceId } from './device-id';
import type { PinnedModelRow } from './offline-db';
import { openOfflineDb } from './open-db';
import { cacheStorageAvailable, forget, keep, sweep } from './pinned-cache';
import { prepareOfflineViewer } from './prepare-viewer';

/**
 * Models pinned for offline use (issue 8 §3; apps/web README "Pinned models"). A pin is a row in the
 * `pinnedModels` store (per user) and its files in Cache Storage (pinned-cache.ts): the .glb under a
 * portal URL of our own, the thumbnail and branding images under their own URLs (the service worker
 * answers those from the cache). The viewer's app is cached by the viewer's own service worker.
 */
interface PinnedModelData {
  /** The card as the listing showed it. */
  listing: Model;
  /** What the server answered for the offline copy (viewer origin, features, branding, copy id...). */
  copy: OfflineCopy;
  /** The device id the copy was issued to (sent with each view made offline, with `copy.copyId`). */
  deviceId: string;
  /** The cache URL of the .glb. */
  fileUrl: string;
}

export type PinnedModel = Omit<PinnedModelRow, 'model'> & { model: PinnedModelData };

export class PinError extends Error {}

/** The cache URL of a pinned .glb: per user and version, on the portal's origin, never fetched. */
const pinnedFileUrl = (tenant: string, userId: number, modelId: number, version: number): string =>
  new URL(
    `/offline/pinned/${encodeURIComponent(tenant)}/${userId}/${modelId}-v${version}.glb`,
    location.origin,
  ).href;

const absolute = (url: string): string => new URL(url, location.origin).href;

export async function getPinnedModel(userId: number, modelId: number): Promise<PinnedModel | null> {
  try {
    return (
      ((await (await openOfflineDb())?.pinnedModels.get([userId, modelId])) as PinnedModel | undefined) ??
      null
    );
  } catch {
    return null;
  }
}

async function download(url: string, init: RequestInit = {}): Promise<Blob> {
  const response = await fetch(url, { credentials: 'omit', ...init });
  if (!response.ok) throw new PinError(`GET ${url}: ${response.status}`);
  return response.blob();
}

/** Asks the browser not to clear the site's storage under pressure (once granted it stays). */
async function askPersistence(): Promise<void> {
  try {
    if (navigator.storage?.persist && !(await navigator.storage.persisted()))
      await navigator.storage.persist();
  } catch {
    // Best effort: without it the browser may evict the files when space runs low (shown to the user).
  }
}

/** All URLs any pin still references (for every user on this device). */
async function urlsInUse(): Promise<Set<string>> {
  const rows = (await (await openOfflineDb())?.pinnedModels.toArray()) ?? [];
  return new Set(rows.flatMap((row) => row.urls));
}

/**
 * Pins a model for `userId` in `tenant`: asks the API for the offline copy (no view is counted; the
 * server issues the copy to this user and device, and counts offline views only against it),
 * caches the viewer's app, then downloads the .glb, the thumbnail and the branding images into Cache
 * Storage, and writes the row last (a pin without its files never shows as kept).
 */
export async function pinModel(userId: number, tenant: string, model: Model): Promise<PinnedModel> {
  const db = await openOfflineDb();
  if (!db || !cacheStorageAvailable()) throw new PinError(MSG.pinNotSupported);
  const device = deviceId();
  const copy = OfflineCopy.parse(
    await tenantApi.post<unknown>(
      '/model/offline-copy',
      { id: model.id, deviceId: device },
      { toast: false },
    ),
  );
  const persistence = askPersistence();
  if (!(await prepareOfflineViewer(copy.viewerOrigin))) throw new PinError('The viewer could not be cached');

  const fileUrl = pinnedFileUrl(tenant, userId, model.id, copy.version);
  const glb = await download(copy.fileUrl);
  await keep(fileUrl, new Blob([glb], { type: 'model/gltf-binary' }));
  const urls = [fileUrl];
  let bytes = glb.size;
  const images = [model.thumbnail, copy.branding.modelBgLogo, copy.branding.modelLoadingLogo];
  for (const image of images) {
    if (!image) continue;
    const url = absolute(image);
    if (urls.includes(url)) continue;
    try {
      const blob = await download(url, { mode: 'cors' });
      await keep(url, blob);
      urls.push(url);
      bytes += blob.size;
    } catch {
      // An image that cannot be fetched is only decoration: the model still opens offline.
    }
  }
  const row: PinnedModel = {
    userId,
    modelId: model.id,
    tenant,
    model: { listing: model, copy, deviceId: device, fileUrl },
    urls,
    bytes,
    pinnedAt: Date.now(),
  };
  await db.pinnedModels.put(row);
  await persistence;
  return row;
}

/**
 * A pinned model changed on the server (a new file: a higher version): the new copy is kept, then the
 * old files no pin uses any more are freed. When it fails the old copy stays (still better offline).
 */
export async function refreshPin(
  userId: number,
  tenant: string,
  model: Model,
  previous: PinnedModel,
): Promise<void> {
  const next = await pinModel(userId, tenant, model);
  const inUse = await urlsInUse();
  await forget(previous.urls.filter((url) => !next.urls.includes(url) && !inUse.has(url)));
}

/** Unpins: the row goes, then every cached file no other pin uses (a thumbnail may be shared). */
export async function unpinModel(userId: number, modelId: number): Promise<void> {
  const db = await openOfflineDb();
  if (!db) return;
  await db.pinnedModels.delete([userId, modelId]);
  await sweep(await urlsInUse());
}

/** Forgets a user's pins and frees their files (sign-out, another user signing in). */
async function clearPinnedModels(userId: number): Promise<void> {
  try {
    const db = await openOfflineDb();
    if (!db) return;
    await db.pinnedModels.where('userId').equals(userId).delete();
    // Also frees files whose rows were already deleted elsewhere (clearUserData).
    await sweep(await urlsInUse());
  } catch {
    // Storage refused: nothing more to free.
  }
}

/**
 * Signing out (logout, 401, another login) or another user signing in frees the previous user's pins.
 * Installed once at start-up (offline-start.ts), whatever page is open.
 */
export function freePinsOnSignOut(): () => void {
  let signedIn: number | null = appStore.get(sessionUserAtom)?.id ?? null;
  return appStore.sub(sessionUserAtom, () => {
    const next = appStore.get(sessionUserAtom)?.id ?? null;
    if (signedIn !== null && next !== signedIn) void clearPinnedModels(signedIn);
    signedIn = next;
  });
}
