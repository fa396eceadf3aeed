import { MSG } from '@helix/shared';
import {
  OFFLINE_VIEW_CLOCK_SKEW_MS,
  OFFLINE_VIEW_MAX_AGE_DAYS,
  type OfflineViewAnswer,
  type OfflineViewRequest,
} from '@helix/shared/schemas/pinned-model';
import type { z } from 'zod';
import type { ServerDeps } from '../deps.ts';
import type { OfflineView } from '../db.ts';
import { AppError } from '../errors.ts';
import { visibleTo } from '../models/model.policy.ts';
import { uniqueViolation } from '../prisma-errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { hasActivePlan } from '../views/allowance.ts';
import { recordView } from '../views/record-view.ts';
import { viewDepsOf } from '../views/views-summary.ts';

/**
 * How long Redis remembers that an offline view's key was counted (its seen flag). It covers a call
 * that counted the view but failed before PostgreSQL noted it ('pending'): a resend within this time
 * is recognised by Redis and not counted again.
 */
const OFFLINE_SEEN_SECONDS = 24 * 60 * 60;

/**
 * A key row is kept while a resend could still be accepted: views older than
 * OFFLINE_VIEW_MAX_AGE_DAYS are refused by the request schema, and a row is made at most the clock
 * allowance after its view, so a day more is safe. Older rows of the caller's tenant are deleted as
 * calls come in (the table stays small without a job of its own).
 */
const KEEP_KEYS_MS = (OFFLINE_VIEW_MAX_AGE_DAYS + 1) * 24 * 60 * 60 * 1000;

type Input = z.output<typeof OfflineViewRequest>;

/** The answer to a view the server does not honour: nothing counted, nothing recorded, no error. */
const NOT_COUNTED: OfflineViewAnswer = { counted: false, duplicate: false };

/**
 * The start of the view window the view falls in (windows of VIEW_WINDOW_SECONDS from the epoch).
 * A view stamped before its copy was issued (device clocks drift, by at most the skew allowed) is
 * taken as made at the issue time.
 */
function windowStartOf(viewedAt: Date, issuedAt: Date, windowSeconds: number): Date {
  const windowMs = windowSeconds * 1000;
  const at = Math.max(viewedAt.getTime(), issuedAt.getTime());
  return new Date(Math.floor(at / windowMs) * windowMs);
}

/**
 * The key's row, made by this call (`created`) or an earlier one with the same key; null when another
 * key already holds the user's view of this model in that window (it counts once, as online).
 */
async function claimKey(
  deps: ServerDeps,
  actor: Actor,
  input: Input,
  windowStart: Date,
): Promise<{ row: OfflineView; created: boolean } | null> {
  const data = {
    key: input.key,
    tenantId: actor.tenant.id,
    userId: actor.user.id,
    modelId: input.id,
    viewedAt: new Date(input.viewedAt),
    copyId: input.copyId,
    windowStart,
  };
  try {
    return { row: await deps.db.offlineView.create({ data }), created: true };
  } catch (error) {
    if (!uniqueViolation(error)) throw error;
  }
  const row = await deps.db.offlineView.findUnique({ where: { key: input.key } });
  // Not the key: the (user, model, window) constraint refused it.
  if (!row) return null;
  // A key names one view: the same key sent for another user, tenant or model is refused.
  if (row.tenantId !== data.tenantId || row.userId !== data.userId || row.modelId !== data.modelId) {
    throw AppError.conflict(MSG.offlineViewKeyReused);
  }
  return { row, created: false };
}

/**
 * POST /model/offline-view: a view of a pinned model made without network, sent when the device is
 * back online. Honoured only when it names an offline copy the server issued (issue-offline-copy) to
 * the caller, for this device and this model, and was made after the copy was issued; anything else
 * (an invented or foreign copy id, another device's copy) is answered `counted: false` and recorded
 * nowhere. A user's offline views of a model count at most once per view window (VIEW_WINDOW_SECONDS
 * by the view's time, as an online viewer's loads): a second key in a counted window answers
 * `counted: false`. The route limits calls per user (OFFLINE_VIEW_RATE_LIMIT_*).
 *
 * Counted exactly once per key, however often it is sent (a lost answer, two tabs, a retry): the key
 * is recorded in PostgreSQL (OfflineView) with the outcome, and the Redis count is made with the key as
 * the viewer (its seen flag), so even a call interrupted between the two does not count twice on a
 * resend. Against the same limits as an online portal view, at the time it arrives: over the limit
 * with additionalViewsValidation on it is refused (`counted: false`, kept as 'refused', and answered so
 * again), not retried. The model must be visible to the caller's tenant and the plan in force, as
 * online.
 */
export async function recordOfflineView(
  deps: ServerDeps,
  actor: Actor,
  input: Input,
): Promise<OfflineViewAnswer> {
  const model = await deps.db.model.findFirst({
    where: { id: input.id, ...visibleTo(actor) },
    select: { id: true },
  });
  if (!model) throw AppError.notFound();
  const copy = await deps.db.offlineCopyGrant.findFirst({
    where: {
      id: input.copyId,
      tenantId: actor.tenant.id,
      userId: actor.user.id,
      deviceId: input.deviceId,
      modelId: model.id,
    },
    select: { issuedAt: true },
  });
  const viewedAt = new Date(input.viewedAt);
  if (!copy || viewedAt.getTime() < copy.issuedAt.getTime() - OFFLINE_VIEW_CLOCK_SKEW_MS) {
    return NOT_COUNTED;
  }
  await deps.db.offlineView.deleteMany({
    where: { tenantId: actor.tenant.id, createdAt: { lt: new Date(Date.now() - KEEP_KEYS_MS) } },
  });
  const windowStart = windowStartOf(viewedAt, copy.issuedAt, deps.config.VIEW_WINDOW_SECONDS);
  const claimed = await claimKey(deps, actor, input, windowStart);
  if (!claimed) return NOT_COUNTED;
  const { row, created } = claimed;
  if (row.outcome === 'counted') return { counted: true, duplicate: true };
  if (row.outcome === 'refused') return { counted: false, duplicate: true };

  const tenant = await deps.db.tenant.findUnique({
    where: { id: actor.tenant.id },
    include: { subscription: { include: { plan: true } }, branding: true },
  });
  if (!tenant || !hasActivePlan(tenant)) {
    // Nothing counted: the key is released, so the view may be sent again once the plan is back.
    await deps.db.offlineView.deleteMany({ where: { key: row.key, outcome: 'pending' } });
    throw AppError.forbidden(MSG.planNotActive);
  }
  const viewDeps = viewDepsOf(deps);
  let outcome: 'counted' | 'refused';
  try {
    await recordView({ ...viewDeps, viewWindowSeconds: OFFLINE_SEEN_SECONDS }, tenant, {
      modelId: model.id,
      viewerKey: `u:${actor.user.id}`,
      source: 'portal',
      viewer: `offline:${row.key}`,
    });
    outcome = 'counted';
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 429) throw error;
    outcome = 'refused';
  }
  await deps.db.offlineView.update({ where: { key: row.key }, data: { outcome } });
  return { counted: outcome === 'counted', duplicate: !created };
}
