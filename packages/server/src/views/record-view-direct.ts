import type { Redis } from 'ioredis';
import { MSG } from '@helix/shared';
import { TtlCache } from '../cache/ttl-cache.ts';
import { AppError } from '../errors.ts';
import { redisOutageOf } from '../redis.ts';
import type { BillingPeriod, ViewAllowance } from './allowance.ts';
import { addViewRows } from './flush-views.ts';
import type { ViewEntry } from './view-store.ts';
import type { Db } from '../db.ts';

/**
 * While Redis is down, a viewer load is counted straight in PostgreSQL (one upsert of its
 * ModelViewDaily row) so the page still loads and views recorded stay equal to loads answered. What
 * Redis normally adds is approximated, on purpose:
 *
 * - once per viewer per model within the window: remembered in this process only (a viewer counted
 *   in Redis before the outage, or whose reload lands on another API process, is counted again; at
 *   most once per process per window);
 * - the ceiling per address and link (VIEWS_PER_ADDRESS_PER_HOUR): counted in this process only,
 *   from the first view it counts in PostgreSQL for an hour (an address gets at most one more
 *   ceiling's worth per API process per outage);
 * - the view limit (additionalViewsValidation on): checked against the period's views in PostgreSQL,
 *   without the few not yet flushed from Redis and without a lock (concurrent loads at the limit may
 *   pass it by a few);
 * - the tenant's Redis period counter does not see these views: after the outage the counters this
 *   process passed by are deleted, so the next load re-reads them exactly (periodViewCount).
 */
export interface DirectViewDeps {
  db: Db;
  redis: Redis;
}

/** Viewers remembered per process during an outage (each a short string). */
const SEEN_ENTRIES = 100_000;
const seenCaches = new Map<number, TtlCache<string, true>>();
const seenFor = (windowSeconds: number): TtlCache<string, true> => {
  let cache = seenCaches.get(windowSeconds);
  if (!cache) {
    cache = new TtlCache({ ttlMs: windowSeconds * 1000, maxEntries: SEEN_ENTRIES });
    seenCaches.set(windowSeconds, cache);
  }
  return cache;
};

/** Views counted per ceiling scope during an outage, per ceiling period (an object, changed in place). */
const ceilingCaches = new Map<number, TtlCache<string, { used: number }>>();
const ceilingFor = (seconds: number): TtlCache<string, { used: number }> => {
  let cache = ceilingCaches.get(seconds);
  if (!cache) {
    cache = new TtlCache({ ttlMs: seconds * 1000, maxEntries: SEEN_ENTRIES });
    ceilingCaches.set(seconds, cache);
  }
  return cache;
};

/** Period counters passed by while Redis was down, per client: deleted once it is back. */
const staleCounters = new WeakMap<Redis, Set<string>>();
function markStale(redis: Redis, counter: string): void {
  let counters = staleCounters.get(redis);
  if (!counters) {
    counters = new Set();
    staleCounters.set(redis, counters);
    const outage = redisOutageOf(redis);
    outage?.onRecovered(() => {
      const keys = [...counters!];
      counters!.clear();
      if (keys.length) redis.del(...keys).catch(() => keys.forEach((k) => counters!.add(k)));
    });
  }
  counters.add(counter);
}

export interface DirectLoad {
  entry: Omit<ViewEntry, 'count'>;
  /** The Redis seen key of this viewer's load (the same identity, kept in this process). */
  seen: string;
  /** The tenant's Redis period counter, to be re-read after the outage. */
  counter: string;
  windowSeconds: number;
  allowance: ViewAllowance;
  period: BillingPeriod;
  /** The Redis ceiling keys (here only names) and their figures, when the load has any. */
  ceilings?: { key: string; max: number; seconds: number }[];
}

/**
 * Counts one load in PostgreSQL (see above). Answers the state as Redis would: counted, already
 * counted in the window, or refused (429) over the limit. `count` is the period's views in PostgreSQL
 * when the limit was checked, else 0 (not read for an unlimited plan: nobody needs it then).
 */
export async function recordViewDirect(
  deps: DirectViewDeps,
  tenantId: number,
  load: DirectLoad,
): Promise<{ counted: boolean; count: number }> {
  const seen = seenFor(load.windowSeconds);
  if (seen.has(load.seen)) return { counted: false, count: 0 };
  const used: { used: number }[] = [];
  for (const c of load.ceilings ?? []) {
    const cache = ceilingFor(c.seconds);
    let ceiling = cache.get(c.key);
    if (!ceiling) {
      ceiling = { used: 0 };
      cache.set(c.key, ceiling);
    }
    if (ceiling.used >= c.max) return { counted: false, count: 0 };
    used.push(ceiling);
  }
  // Set before the first await: a concurrent load of the same viewer (or address, at the ceiling) in
  // this process is not counted twice; undone below when the load is not counted after all.
  seen.set(load.seen, true);
  for (const ceiling of used) ceiling.used += 1;
  try {
    let count = 0;
    if (load.allowance.refuseOverLimit && load.allowance.stopAt > 0) {
      const stored = await deps.db.modelViewDaily.aggregate({
        where: { tenantId, day: { gte: new Date(load.period.firstDay), lt: new Date(load.period.endDay) } },
        _sum: { count: true },
      });
      count = stored._sum.count ?? 0;
      if (count >= load.allowance.stopAt) throw AppError.tooManyRequests(MSG.viewLimitReached);
      count += 1;
    }
    await addViewRows(deps.db, [{ ...load.entry, count: 1 }]);
    markStale(deps.redis, load.counter);
    return { counted: true, count };
  } catch (error) {
    seen.delete(load.seen);
    for (const ceiling of used) ceiling.used -= 1;
    throw error;
  }
}
