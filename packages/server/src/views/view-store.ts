import type { Redis } from 'ioredis';
import { defineScript, redisKey } from '../redis.ts';

/**
 * The Redis side of view counting. Every key is under REDIS_PREFIX:
 *
 * - `views:pending` (hash): loads not yet in PostgreSQL, field `<modelId>|<tenantId>|<YYYY-MM-DD>|<viewerKey>|<source>`;
 * - `views:flushing:<uuid>` (hash): a batch taken by a flush (the pending hash renamed atomically);
 * - `views:batches` (set): the uuids of the flushing batches not yet deleted;
 * - `views:claims` (counter): how many batches were ever claimed, so a reader can tell that the pending
 *   hash it saw has become a batch (and may be in PostgreSQL) since;
 * - `views:period:<tenantId>:<periodStart>` (counter): the tenant's loads in its billing period, for the
 *   view limit (initialised from PostgreSQL plus the unflushed counts when missing);
 * - `views:seen:<modelId>:<tenantId>:<viewer hash>` (flag, expires after the view window): this viewer's
 *   load of this model was counted within the window, so another one is not;
 * - `views:ceiling:<linkId>:<network hash>` (counter, expires an hour after its first view): views
 *   counted for one share/embed link from one client network (VIEWS_PER_ADDRESS_PER_HOUR);
 * - `views:ceiling:t<tenantId>:<network hash>` (the same, across all the tenant's links):
 *   VIEWS_PER_TENANT_ADDRESS_PER_HOUR.
 */
export const viewKeys = (prefix: string) => ({
  pending: redisKey(prefix, 'views', 'pending'),
  batches: redisKey(prefix, 'views', 'batches'),
  claims: redisKey(prefix, 'views', 'claims'),
  flushing: (id: string) => redisKey(prefix, 'views', 'flushing', id),
  flushingPattern: redisKey(prefix, 'views', 'flushing', '*'),
  seen: (modelId: number, tenantId: number, viewerHash: string) =>
    redisKey(prefix, 'views', 'seen', String(modelId), String(tenantId), viewerHash),
  ceiling: (scope: string) => redisKey(prefix, 'views', 'ceiling', scope),
  period: (tenantId: number, start: Date) =>
    redisKey(prefix, 'views', 'period', String(tenantId), String(Math.floor(start.getTime() / 1000))),
});

export const VIEW_SOURCES = ['portal', 'share', 'embed', 'lti'] as const;
export type ViewSourceName = (typeof VIEW_SOURCES)[number];

export interface ViewEntry {
  modelId: number;
  tenantId: number;
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** 'u:<userId>', 'e:<embedTokenId>' or 'l:<ltiContextId>' (an LTI launch's course). */
  viewerKey: string;
  source: ViewSourceName;
  count: number;
}

export const viewField = (e: Omit<ViewEntry, 'count'>): string =>
  `${e.modelId}|${e.tenantId}|${e.day}|${e.viewerKey}|${e.source}`;

const FIELD = /^(\d{1,10})\|(\d{1,10})\|(\d{4}-\d{2}-\d{2})\|([uel]:\d{1,10})\|(portal|share|embed|lti)$/;

/** A pending field and its count, or null when it is not one of ours. */
export function parseViewField(field: string, count: string | number): ViewEntry | null {
  const match = FIELD.exec(field);
  const n = Number(count);
  if (!match || !Number.isSafeInteger(n) || n <= 0) return null;
  return {
    modelId: Number(match[1]),
    tenantId: Number(match[2]),
    day: match[3]!,
    viewerKey: match[4]!,
    source: match[5] as ViewSourceName,
    count: n,
  };
}

export const parseViewHash = (hash: Record<string, string>): ViewEntry[] =>
  Object.entries(hash).flatMap(([field, count]) => parseViewField(field, count) ?? []);

/**
 * Count one load, atomically, and check its public rate limit in the same round trip: KEYS[6..] are the
 * load's rate-limit windows (load-limit.ts), each INCRed first (expiring ARGV[9] ms after its first
 * count); when one passes its most (ARGV[10..]) the load is refused as too many requests, [4, 0], and
 * nothing else changes. Then: when the viewer's seen flag (KEYS[3]) is already set, the load is within
 * the view window of a counted one and is not counted again; when a ceiling is set (ARGV[5] > 0) and
 * its counter (KEYS[4]) has reached it, or a second ceiling (ARGV[7], counter KEYS[5]) has, the load
 * is not counted (nothing changes); else set the flag
 * (expiring after ARGV[4] seconds), INCR the tenant's period counter; when a limit is set, refusing is
 * on and the counter passed the limit, DECR it back, clear the flag and refuse; else INCR the ceiling
 * counters (expiring ARGV[6] and ARGV[8] seconds after their first view) and HINCRBY the pending field.
 * Answers [-1, 0] when the counter does not exist yet (the caller initialises it and calls again),
 * [0, count] when refused, [1, count] when counted, [2, count] when already counted in the window,
 * [3, count] when over the ceiling. Run twice for one load, it counts at most once (the seen flag); a
 * second run (the counter initialised, a lost answer settled) passes no windows, so they count once.
 */
const COUNT_VIEW = `
local over = false
for i = 6, #KEYS do
  local n = redis.call('INCR', KEYS[i])
  if n == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[9]) end
  if n > tonumber(ARGV[i + 4]) then over = true end
end
if over then return {4, 0} end
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1, 0} end
if redis.call('EXISTS', KEYS[3]) == 1 then return {2, tonumber(redis.call('GET', KEYS[1]))} end
local ceiling = tonumber(ARGV[5])
local ceiling2 = tonumber(ARGV[7])
if (ceiling > 0 and (tonumber(redis.call('GET', KEYS[4])) or 0) >= ceiling)
  or (ceiling2 > 0 and (tonumber(redis.call('GET', KEYS[5])) or 0) >= ceiling2) then
  return {3, tonumber(redis.call('GET', KEYS[1]))}
end
redis.call('SET', KEYS[3], '1', 'EX', ARGV[4])
local c = redis.call('INCR', KEYS[1])
local limit = tonumber(ARGV[1])
if limit > 0 and ARGV[2] == '1' and c > limit then
  redis.call('DECR', KEYS[1])
  redis.call('DEL', KEYS[3])
  return {0, c - 1}
end
if ceiling > 0 and redis.call('INCR', KEYS[4]) == 1 then redis.call('EXPIRE', KEYS[4], ARGV[6]) end
if ceiling2 > 0 and redis.call('INCR', KEYS[5]) == 1 then redis.call('EXPIRE', KEYS[5], ARGV[8]) end
redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
return {1, c}
`;

/**
 * Take the pending hash as a batch: RENAME it to the batch's key, remember the batch and count the
 * claim, atomically.
 */
const CLAIM_PENDING = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('INCR', KEYS[4])
return 1
`;

/**
 * Everything not yet deleted from Redis, as ONE consistent snapshot: the claims counter, the pending
 * hash, and each batch id with its hash. The batch keys are derived from the set (ARGV[1] is the key
 * prefix of a batch), which is fine on a single Redis, not on a cluster.
 */
const SNAPSHOT = `
local out = { redis.call('GET', KEYS[3]) or '0', redis.call('HGETALL', KEYS[1]) }
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGETALL', ARGV[1] .. id)
end
return out
`;

interface ViewCommands {
  /** COUNT_VIEW: the key count (5 + the rate-limit windows), the keys, then the arguments. */
  helixCountView(keyCount: number, ...keysThenArgs: (string | number)[]): Promise<[number, number]>;
  helixClaimPending(
    pending: string,
    flushing: string,
    batches: string,
    claims: string,
    id: string,
  ): Promise<number>;
  helixViewSnapshot(
    pending: string,
    batches: string,
    claims: string,
    flushingPrefix: string,
  ): Promise<[string, string[], ...(string | string[])[]]>;
}

const defined = new WeakSet<Redis>();

/** The client with the scripts defined (EVALSHA, loaded on first use). */
export function viewCommands(redis: Redis): Redis & ViewCommands {
  if (!defined.has(redis)) {
    defineScript(redis, 'helixCountView', { lua: COUNT_VIEW }); // the key count first
    defineScript(redis, 'helixClaimPending', { numberOfKeys: 4, lua: CLAIM_PENDING });
    defineScript(redis, 'helixViewSnapshot', { numberOfKeys: 3, lua: SNAPSHOT });
    defined.add(redis);
  }
  return redis as Redis & ViewCommands;
}

const hashOf = (flat: string[]): Record<string, string> => {
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) hash[flat[i]!] = flat[i + 1]!;
  return hash;
};

/** The unflushed Redis state at one instant (see SNAPSHOT). */
export interface ViewSnapshot {
  /** The claims counter then: if it has changed since, the pending hash seen may be in PostgreSQL. */
  claims: string;
  pending: ViewEntry[];
  batches: { id: string; entries: ViewEntry[] }[];
}

export async function viewSnapshot(redis: Redis, prefix: string): Promise<ViewSnapshot> {
  const keys = viewKeys(prefix);
  const [claims, pending, ...rest] = await viewCommands(redis).helixViewSnapshot(
    keys.pending,
    keys.batches,
    keys.claims,
    keys.flushing(''),
  );
  const batches: ViewSnapshot['batches'] = [];
  for (let i = 0; i + 1 < rest.length; i += 2) {
    batches.push({ id: rest[i] as string, entries: parseViewHash(hashOf(rest[i + 1] as string[])) });
  }
  return { claims: String(claims), pending: parseViewHash(hashOf(pending)), batches };
}

/** The claims counter now (compare with ViewSnapshot.claims). */
export const viewClaims = async (redis: Redis, prefix: string): Promise<string> =>
  (await redis.get(viewKeys(prefix).claims)) ?? '0';

/**
 * Counts in Redis that are not in PostgreSQL yet: the pending hash and the batches whose flush has not
 * committed (`applied` says which batch ids already are in PostgreSQL), from one snapshot. For an
 * exact total with PostgreSQL, see periodViewCount.
 */
export async function unflushedViews(
  redis: Redis,
  prefix: string,
  applied: (ids: string[]) => Promise<Set<string>>,
): Promise<ViewEntry[]> {
  const snapshot = await viewSnapshot(redis, prefix);
  const done = await applied(snapshot.batches.map((b) => b.id));
  return [...snapshot.pending, ...snapshot.batches.flatMap((b) => (done.has(b.id) ? [] : b.entries))];
}
