import type { Request, RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { AppError } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
import { isRedisUnavailable, redisKey, watchRedis } from '@helix/server/redis';
import { sha256 } from '@helix/server/tokens';

/**
 * Both limits of the public embed path in ONE Redis round trip (a script counting each key in a fixed
 * window): per client address (EMBED_RATE_LIMIT_MAX) and per link (EMBED_TOKEN_RATE_LIMIT_MAX, any
 * addresses; only the token's hash is a key), per EMBED_RATE_LIMIT_WINDOW_SECONDS, shared by every API
 * process. The two express-rate-limit middlewares it replaces cost a round trip each on every page
 * load. Over either: 429 in the standard error shape. Redis down: the load goes through (the limiter
 * must not lock a classroom out), without asking while the outage is known.
 */
const COUNT_WINDOWS = `
local counts = {}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('PEXPIRE', key, ARGV[1]) end
  counts[i] = n
end
return counts`;

type Counting = Redis & {
  helixCountWindows(keys: number, ...args: (string | number)[]): Promise<number[]>;
};

function counting(redis: Redis): Counting {
  const client = redis as Counting;
  if (typeof client.helixCountWindows !== 'function') {
    redis.defineCommand('helixCountWindows', { lua: COUNT_WINDOWS });
  }
  return client;
}

export function publicLimiter(
  deps: Pick<ServerDeps, 'redis' | 'config' | 'logger'>,
  name: string,
  tokenOf: (req: Request) => unknown,
): RequestHandler {
  const { config, logger } = deps;
  const outage = watchRedis(deps.redis, logger);
  const redis = counting(deps.redis);
  const windowMs = config.EMBED_RATE_LIMIT_WINDOW_SECONDS * 1000;
  return (req, _res, next) => {
    if (outage.down) {
      next();
      return;
    }
    const keys = [redisKey(config.REDIS_PREFIX, 'rl', name, 'a', req.ip ?? '')];
    const limits = [config.EMBED_RATE_LIMIT_MAX];
    const token = tokenOf(req);
    if (typeof token === 'string' && token !== '') {
      keys.push(redisKey(config.REDIS_PREFIX, 'rl', name, 't', sha256(token).slice(0, 32)));
      limits.push(config.EMBED_TOKEN_RATE_LIMIT_MAX);
    }
    redis.helixCountWindows(keys.length, ...keys, windowMs).then(
      (counts) => {
        next(counts.some((n, i) => n > limits[i]!) ? AppError.tooManyRequests() : undefined);
      },
      (err: unknown) => {
        if (isRedisUnavailable(err)) outage.failed(err);
        else logger.error({ err }, 'public limiter error');
        next();
      },
    );
  };
}
