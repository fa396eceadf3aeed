import type { RequestHandler } from 'express';
import { rateLimit, type IncrementResponse } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
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
