import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { defineScript, isRedisUnavailable, redisKey, redisOutageOf } from '../redis.ts';
import { sha256 } from '../tokens.ts';

/**
 * The public rate limit of a viewer load (GET /api/viewer/model), as fixed-window counters in Redis:
 * per client address (EMBED_RATE_LIMIT_MAX) and per credential (EMBED_TOKEN_RATE_LIMIT_MAX, any
 * addresses; only the credential's hash is a key), per EMBED_RATE_LIMIT_WINDOW_SECONDS, shared by every
 * API process. A load that counts a view checks them in the same script as its view (view-store.ts
 * COUNT_VIEW): one Redis round trip per page load. A load refused before its view (a bad link, a model
 * gone) still counts against them, with the windows script alone (overLoadLimit).
 */
export interface LoadLimit {
  /** The counters' keys (address first, then the credential's when there is one). */
  keys: string[];
  /** The most each counter allows in a window (same order). */
  maxes: number[];
  windowMs: number;
}

type LimitConfig = Pick<
  Config,
  'REDIS_PREFIX' | 'EMBED_RATE_LIMIT_MAX' | 'EMBED_TOKEN_RATE_LIMIT_MAX' | 'EMBED_RATE_LIMIT_WINDOW_SECONDS'
>;

/** The limit of one load by `name` (the route) from address `ip` with the credential `credential`. */
export function loadLimit(config: LimitConfig, name: string, ip: string, credential: unknown): LoadLimit {
  const keys = [redisKey(config.REDIS_PREFIX, 'rl', name, 'a', ip)];
  const maxes = [config.EMBED_RATE_LIMIT_MAX];
  if (typeof credential === 'string' && credential !== '') {
    keys.push(redisKey(config.REDIS_PREFIX, 'rl', name, 't', sha256(credential).slice(0, 32)));
    maxes.push(config.EMBED_TOKEN_RATE_LIMIT_MAX);
  }
  return { keys, maxes, windowMs: config.EMBED_RATE_LIMIT_WINDOW_SECONDS * 1000 };
}

/**
 * The windows alone: INCR each key (ARGV[1] ms from its first count), answer whether any passed its
 * most (ARGV[2..]). The counting script (view-store.ts) opens with the same loop.
 */
const COUNT_WINDOWS = `
local over = 0
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('PEXPIRE', key, ARGV[1]) end
  if n > tonumber(ARGV[i + 1]) then over = 1 end
end
return over`;

type Counting = Redis & {
  helixLoadLimit(keys: number, ...args: (string | number)[]): Promise<number>;
};

const defined = new WeakSet<Redis>();

function counting(redis: Redis): Counting {
  if (!defined.has(redis)) {
    defineScript(redis, 'helixLoadLimit', { lua: COUNT_WINDOWS });
    defined.add(redis);
  }
  return redis as Counting;
}

/**
 * Counts a load that ends before its view against the limit; true when it is over (answer 429). Redis
 * down (known, or this call fails to reach it): false, the load is not locked out (a classroom must not
 * be), and it is not asked while the outage is known.
 */
export async function overLoadLimit(
  deps: { redis: Redis; logger?: Pick<Logger, 'error'> | undefined },
  limit: LoadLimit,
): Promise<boolean> {
  const outage = redisOutageOf(deps.redis);
  if (outage?.down) return false;
  try {
    const over = await counting(deps.redis).helixLoadLimit(
      limit.keys.length,
      ...limit.keys,
      limit.windowMs,
      ...limit.maxes,
    );
    return over === 1;
  } catch (error) {
    if (isRedisUnavailable(error)) outage?.failed(error);
    else deps.logger?.error({ err: error }, 'public limiter error');
    return false;
  }
}
