import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { MSG } from '@helix/shared';
import type { Db } from '../db.ts';
import { withTransaction } from '../db/transaction.ts';
import { AppError } from '../errors.ts';
import { sha256 } from '../tokens.ts';
import {
  billingPeriod,
  dayOf,
  viewAllowance,
  type BillingPeriod,
  type TenantPlanContext,
  type ViewAllowance,
} from './allowance.ts';
import { appliedBatches } from './flush-views.ts';
import type { LoadLimit } from './load-limit.ts';
import { isRedisUnavailable, redisCommandNotSent, redisOutageOf } from '../redis.ts';
import { recordViewDirect } from './record-view-direct.ts';
import { settleLater } from './settle-later.ts';
import { noteUsage, type UsageAlertQueue } from './usage-alerts.ts';
import {
  unflushedViews,
  viewClaims,
  viewCommands,
  viewField,
  viewKeys,
  viewSnapshot,
  type ViewSourceName,
} from './view-store.ts';

export interface ViewDeps {
  db: Db;
  redis: Redis;
  prefix: string;
  /** A viewer's loads of a model within this many seconds count once (VIEW_WINDOW_SECONDS). */
  viewWindowSeconds?: number;
  /** Where a view that could not be settled is reported. */
  logger?: Logger;
  /** Percent of the plan's views served past the allowance before refusing (VIEW_GRACE_PERCENT). */
  viewGracePercent?: number;
  /** Queues the 80% / 100% usage e-mails (usage-alerts.ts); without it none are sent (tests). */
  jobs?: UsageAlertQueue;
}

/** The view window when the configuration does not say (VIEW_WINDOW_SECONDS' default). */
export const DEFAULT_VIEW_WINDOW_SECONDS = 30 * 60;

/** The unflushed Redis counts, minus batches already applied (for reads that must not lag). */
export const pendingViews = (deps: ViewDeps) =>
  unflushedViews(deps.redis, deps.prefix, (ids) => appliedBatches(deps.db, ids));

/** Tries before periodViewCount gives up: each retry means a flush claimed a batch during the read. */
const SNAPSHOT_ATTEMPTS = 10;

/**
 * The tenant's views in a billing period: PostgreSQL plus what Redis has not flushed yet, exactly,
 * while flushes run. Redis is read as one snapshot (pending hash and every batch); PostgreSQL after it,
 * in one REPEATABLE READ transaction (the applied ViewFlush ids and the sum agree), and a snapshot batch
 * is added only when its id is not applied there. A batch deleted from Redis before the snapshot was
 * committed before it, so it is in the sum. The one remaining overlap, the pending hash claimed and
 * applied between the two reads, shows as a changed claims counter: then both are read again.
 * `afterSnapshot` runs between the two reads (tests).
 */
export async function periodViewCount(
  deps: ViewDeps,
  tenantId: number,
  period: BillingPeriod,
  hooks: { afterSnapshot?: () => Promise<void> } = {},
): Promise<number> {
  const where = { tenantId, day: { gte: new Date(period.firstDay), lt: new Date(period.endDay) } };
  for (let attempt = 0; attempt < SNAPSHOT_ATTEMPTS; attempt += 1) {
    const snapshot = await viewSnapshot(deps.redis, deps.prefix);
    await hooks.afterSnapshot?.();
    const [applied, stored] = await withTransaction(
      deps.db,
      async (tx) =>
        [
          await tx.viewFlush.findMany({
            where: { id: { in: snapshot.batches.map((b) => b.id) } },
            select: { id: true },
          }),
          await tx.modelViewDaily.aggregate({ where, _sum: { count: true } }),
        ] as const,
      { isolationLevel: 'RepeatableRead' },
    );
    if ((await viewClaims(deps.redis, deps.prefix)) !== snapshot.claims) continue;
    const done = new Set(applied.map((r) => r.id));
    const unflushed = [
      ...snapshot.pending,
      ...snapshot.batches.flatMap((b) => (done.has(b.id) ? [] : b.entries)),
    ]
      .filter((e) => e.tenantId === tenantId && e.day >= period.firstDay && e.day < period.endDay)
      .reduce((sum, e) => sum + e.count, 0);
    return (stored._sum.count ?? 0) + unflushed;
  }
  throw new Error('The period view count could not be read: batches kept being claimed during the read');
}

export interface ViewLoad {
  modelId: number;
  /** 'u:<userId>' (portal) or 'e:<embedTokenId>' (share and embed pages): whom the view is credited to. */
  viewerKey: string;
  source: ViewSourceName;
  /**
   * Who is looking, for counting once per viewer per model within the view window: the portal user
   * ('u:<userId>'), or on the share and embed pages the server-minted viewer token's viewer (else the
   * client's network) under the link (embed-viewer.ts). Only its hash is kept, in Redis, for the window.
   */
  viewer: string;
  /**
   * At most `max` views counted per `seconds` for each scope (share/embed: the link and the client
   * network, and the tenant and the client network). At most two.
   */
  ceilings?: ViewCeiling[];
  /**
   * The load's public rate limit (load-limit.ts), checked in the counting script itself: over it, 429
   * and nothing is counted. Not asked while Redis is down (the load is let through).
   */
  limit?: LoadLimit;
}

export interface ViewCeiling {
  scope: string;
  max: number;
  seconds: number;
}

export interface RecordedView extends ViewAllowance {
  /** The tenant's views in the period, this one included. */
  count: number;
  period: BillingPeriod;
  /** False when the viewer's load was already counted within the window, or its ceiling is reached. */
  counted: boolean;
}

/** Within a process, concurrent first loads of a period share one initialisation. */
const initialising = new Map<string, Promise<void>>();
async function initialiseCounter(counter: string, run: () => Promise<void>): Promise<void> {
  let pending = initialising.get(counter);
  if (!pending) {
    pending = run().finally(() => initialising.delete(counter));
    initialising.set(counter, pending);
  }
  await pending;
}

/** Counter TTL: the period's end plus a margin, so a counter never outlives its use by much. */
const COUNTER_MARGIN_SECONDS = 35 * 24 * 3600;

/**
 * One load of a model in the viewer: checks the tenant's view limit and counts the view, atomically in
 * Redis (see view-store.ts); the flush-views job moves the count to PostgreSQL. A viewer's loads of a
 * model within the view window count once. Over the limit with additionalViewsValidation on: 429 'View
 * limit reached' and nothing is counted. A load with a public rate limit (`load.limit`) is checked
 * against it in the same script: ONE Redis round trip for limit, ceiling and count (429 over it).
 *
 * While Redis is down the load is counted straight in PostgreSQL instead (record-view-direct.ts), so a
 * viewer load never fails for a Redis outage: when Redis is known to be down (its outage state), and
 * when a command fails without having reached Redis. A failure that leaves it unknown whether Redis
 * counted the load (the connection lost or a timeout after the counting script was sent) serves the
 * load and runs the same script again once Redis answers (settle-later.ts): the script is idempotent
 * within the view window, so the load ends counted exactly once. `settling` is that second run: it
 * never counts in PostgreSQL (Redis may hold the first count) and throws while Redis is down.
 */
export async function recordView(
  deps: ViewDeps,
  tenant: TenantPlanContext,
  load: ViewLoad,
  now = new Date(),
  settling = false,
): Promise<RecordedView> {
  const period = billingPeriod(tenant.subscription, now);
  const allowance = viewAllowance(tenant, deps.viewGracePercent);
  const keys = viewKeys(deps.prefix);
  const counter = keys.period(tenant.id, period.start);
  const entry = {
    modelId: load.modelId,
    viewerKey: load.viewerKey,
    source: load.source,
    tenantId: tenant.id,
    day: dayOf(now),
  };
  const field = viewField(entry);
  const seen = keys.seen(load.modelId, tenant.id, sha256(load.viewer).slice(0, 32));
  const windowSeconds = deps.viewWindowSeconds ?? DEFAULT_VIEW_WINDOW_SECONDS;
  const ceilings = (load.ceilings ?? []).map((c) => ({ ...c, key: keys.ceiling(c.scope) }));
  if (ceilings.length > 2) throw new Error('a view load has at most two ceilings');
  const [first, second] = ceilings;
  const direct = async (): Promise<RecordedView> => {
    const { counted, count } = await recordViewDirect(deps, tenant.id, {
      entry,
      seen,
      counter,
      windowSeconds,
      allowance,
      period,
      ceilings,
    });
    return { ...allowance, count, period, counted };
  };
  const outage = redisOutageOf(deps.redis);
  if (outage?.down && !settling) return direct();

  const redis = viewCommands(deps.redis);
  /** Set while a counting script may have reached Redis: a failure then is ambiguous. */
  let sent = false;
  /** The windows go with the first run only: a second run of the load must not count them again. */
  let limit = load.limit;
  const count = async () => {
    const windows = limit ?? { keys: [], maxes: [], windowMs: 0 };
    limit = undefined;
    sent = true;
    const answer = await redis.helixCountView(
      5 + windows.keys.length,
      counter,
      keys.pending,
      seen,
      first?.key ?? keys.ceiling('none'), // not touched without a ceiling (max 0)
      second?.key ?? keys.ceiling('none'),
      ...windows.keys,
      allowance.stopAt,
      allowance.refuseOverLimit ? '1' : '0',
      field,
      windowSeconds,
      first?.max ?? 0,
      first?.seconds ?? 0,
      second?.max ?? 0,
      second?.seconds ?? 0,
      windows.windowMs,
      ...windows.maxes,
    );
    sent = false;
    return answer;
  };

  let state: number;
  let total: number;
  try {
    [state, total] = await count();
    if (state === -1) {
      await initialiseCounter(counter, async () => {
        const initial = await periodViewCount(deps, tenant.id, period);
        const ttl =
          Math.max(60, Math.ceil((period.end.getTime() - now.getTime()) / 1000)) + COUNTER_MARGIN_SECONDS;
        await deps.redis.set(counter, initial, 'EX', ttl, 'NX'); // across processes, the first one wins
      });
      [state, total] = await count();
    }
  } catch (error) {
    if (!isRedisUnavailable(error)) throw error;
    outage?.failed(error);
    if (settling) throw error;
    if (sent && !redisCommandNotSent(error)) {
      settleLater(
        () => recordView(deps, tenant, { ...load, limit: undefined }, now, true),
        (err) =>
          deps.logger?.warn({ err, tenantId: tenant.id }, 'a view whose count was lost was not settled'),
      );
      return { ...allowance, count: 0, period, counted: true };
    }
    return direct();
  }
  if (state === -1) throw new Error('The view counter could not be initialised');
  if (state === 4) throw AppError.tooManyRequests();
  if (state === 0) throw AppError.tooManyRequests(MSG.viewLimitReached);
  if (state === 1) await noteUsage(deps, tenant.id, period, allowance, total);
  return { ...allowance, count: total, period, counted: state === 1 };
}
