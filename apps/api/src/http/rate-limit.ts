import type { Request, RequestHandler } from 'express';
import { rateLimit, type IncrementResponse } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { ServerDeps } from '@helix/server/deps';
import { AppError } from '@helix/server';
import { isRedisUnavailable, redisKey, watchRedis } from '@helix/server/redis';
import { sha256 } from '@helix/server/tokens';
import { loginThrottle } from './login-throttle.ts';

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
  /**
   * What is counted instead of the client IP (e.g. a hash of the link's token); a request for which it
   * answers null is not limited by this limiter.
   */
  key?: (req: Request) => string | null;
  /** The 429's message (default: the catalogue's generic tooManyRequests). */
  message?: string;
  /** Only failed requests (status >= 400) count: a success gives its count back. */
  onlyFailures?: boolean;
  /** With onlyFailures: which answers are failures (default: status >= 400). */
  failure?: (status: number) => boolean;
}

/**
 * A limiter counting in Redis (shared by every API process). Over the limit: 429 in the standard
 * error shape. If Redis fails the request goes through: a limiter outage must not lock everybody out
 * of logging in. While Redis is known to be down, the limiter does not even ask it (fails open at
 * once), and the outage is logged once by the Redis client's DependencyOutage, not per request.
 */
export function rateLimiter(options: LimiterOptions): RequestHandler {
  const outage = watchRedis(options.redis, options.logger);
  const keyOf = options.key;
  return rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: options.limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    passOnStoreError: true,
    logger: {
      error: (err: unknown, message?: string) => {
        if (isRedisUnavailable(err)) outage.failed(err);
        else options.logger.error({ err }, message ?? 'rate limiter error');
      },
      warn: (err: unknown, message?: string) =>
        options.logger.warn({ err }, message ?? 'rate limiter warning'),
    },
    store: new ResilientRedisStore({
      prefix: `${redisKey(options.prefix, 'rl', options.name)}:`,
      sendCommand: (command: string, ...args: string[]) =>
        options.redis.call(command, ...args) as Promise<RedisReply>,
    }),
    handler: (_req, _res, next) => next(AppError.tooManyRequests(options.message)),
    skip: (req: Request) => outage.down || (keyOf !== undefined && keyOf(req) === null),
    skipSuccessfulRequests: options.onlyFailures ?? false,
    ...(options.failure
      ? {
          requestWasSuccessful: (_req: Request, res: { statusCode: number }) =>
            !options.failure!(res.statusCode),
        }
      : {}),
    ...(keyOf ? { keyGenerator: (req: Request) => keyOf(req) ?? '' } : {}),
  });
}

/**
 * The per-link limiter of the public embed path: EMBED_TOKEN_RATE_LIMIT_MAX requests per token (any
 * addresses) per EMBED_RATE_LIMIT_WINDOW_SECONDS. `tokenOf` reads the token from the raw request;
 * only its hash is a Redis key.
 */
export function tokenLimiter(
  deps: Pick<ServerDeps, 'redis' | 'config' | 'logger'>,
  name: string,
  tokenOf: (req: Request) => unknown,
): RequestHandler {
  return rateLimiter({
    redis: deps.redis,
    prefix: deps.config.REDIS_PREFIX,
    logger: deps.logger,
    name,
    limit: deps.config.EMBED_TOKEN_RATE_LIMIT_MAX,
    windowSeconds: deps.config.EMBED_RATE_LIMIT_WINDOW_SECONDS,
    key: (req) => {
      const token = tokenOf(req);
      return typeof token === 'string' && token !== '' ? sha256(token).slice(0, 32) : null;
    },
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

/**
 * The login's limits (issue: a school signs in from one address): LOGIN_ADDRESS_LIMIT_MAX logins per
 * client address per RATE_LIMIT_WINDOW_SECONDS (a high ceiling: 300 pupils behind one address sign in
 * within ten minutes), then the throttle of guessing per account and address (login-throttle.ts).
 */
export function loginLimiters(deps: Pick<ServerDeps, 'redis' | 'config' | 'logger'>): RequestHandler[] {
  const { config } = deps;
  return [
    rateLimiter({
      redis: deps.redis,
      prefix: config.REDIS_PREFIX,
      logger: deps.logger,
      name: 'login',
      limit: config.LOGIN_ADDRESS_LIMIT_MAX,
      windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    }),
    loginThrottle(deps),
  ];
}
