import type { RequestHandler } from 'express';
import { rateLimit, type IncrementResponse } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { ServerDeps } from '@helix/server/deps';
import { AppError } from '@helix/server';
import { redisKey } from '@helix/server/redis';

/**
 * rate-limit-redis caches the SHA of its script; if Redis was down when it loaded, every later call
 * would fail the same way. Reload the script after a failure instead.
 */
class ResilientRedisStore extends RedisStore {
  override async increment(key: string): Promise<IncrementResponse> {
    try {
      return await super.increment(key);
    } catch (error) {
      this.incrementScriptSha = this.loadIncrementScript(this.prefixKey(key));
      this.incrementScriptSha.catch(() => undefined);
      throw error;
    }
  }
}

export interface LimiterOptions {
  redis: Redis;
  prefix: string;
  logger: Logger;
  /** Counted per client IP and per limiter (one limiter per route). */
  name: string;
  limit: number;
  windowSeconds: number;
}

/**
 * A limiter counting in Redis (shared by every API process). Over the limit: 429 in the standard
 * error shape. If Redis fails the request goes through (logged): a limiter outage must not lock
 * everybody out of logging in.
 */
export function rateLimiter(options: LimiterOptions): RequestHandler {
  return rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: options.limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    passOnStoreError: true,
    logger: {
      error: (err: unknown, message?: string) =>
        options.logger.error({ err }, message ?? 'rate limiter error'),
      warn: (err: unknown, message?: string) =>
        options.logger.warn({ err }, message ?? 'rate limiter warning'),
    },
    store: new ResilientRedisStore({
      prefix: `${redisKey(options.prefix, 'rl', options.name)}:`,
      sendCommand: (command: string, ...args: string[]) =>
        options.redis.call(command, ...args) as Promise<RedisReply>,
    }),
    handler: (_req, _res, next) => next(AppError.tooManyRequests()),
  });
}

/**
 * A route's limiter from the app's dependencies: `name` is its own counter; the limit and window
 * default to RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS (the login-style limits).
 */
export function routeLimiter(
  deps: Pick<ServerDeps, 'redis' | 'config' | 'logger'>,
  name: string,
  limits: { limit: number; windowSeconds: number } = {
    limit: deps.config.RATE_LIMIT_MAX,
    windowSeconds: deps.config.RATE_LIMIT_WINDOW_SECONDS,
  },
): RequestHandler {
  return rateLimiter({
    redis: deps.redis,
    prefix: deps.config.REDIS_PREFIX,
    logger: deps.logger,
    name,
    ...limits,
  });
}
