import type { Request, RequestHandler, Response } from 'express';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { MSG } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import type { ServerDeps } from '@helix/server/deps';
import { AppError } from '@helix/server';
import { isRedisUnavailable, redisKey, watchRedis } from '@helix/server/redis';
import { sha256 } from '@helix/server/tokens';

/** How long a run of failures of one account from one address is remembered (a success clears it). */
const PAIR_MEMORY_SECONDS = 24 * 3600;

/** The wait (s) after the `n`th consecutive failure of an account at an address, `free` of them free. */
export function loginDelaySeconds(n: number, free: number, maxSeconds: number): number {
  if (n <= free) return 0;
  return Math.min(2 ** Math.min(n - free - 1, 30), maxSeconds);
}

/**
 * A failed sign-in (wrong e-mail or password), as the login answers it: counted; anything else not (a
 * malformed request is refused by validation before any password is checked, so it guesses nothing).
 */
const isFailure = (body: unknown) =>
  (body as { code?: unknown } | null)?.code === ERROR_CODES.invalidCredentials;

/**
 * The login's throttle of guessing (rate-limiter-flexible's "consecutive failures by username and IP",
 * plus a per-account ceiling that slows without locking):
 * - per account AND address: LOGIN_FREE_FAILURES consecutive failures are free, then each further one
 *   makes that address wait 1 s, 2 s, 4 s ... up to LOGIN_DELAY_MAX_SECONDS before its next try on
 *   this account (429 with Retry-After); a success there clears the run;
 * - per account, any addresses: past LOGIN_ACCOUNT_FAILURES_MAX failures per
 *   LOGIN_ACCOUNT_WINDOW_SECONDS no address has free failures left, so many addresses guessing together
 *   are slowed too.
 * No rule refuses an address that has not failed on the account: the owner on another device or
 * network signs in while a classmate is being slowed down. The account is the lower-cased e-mail,
 * kept only as a hash. While Redis is down the throttle steps aside (the outage is logged once).
 */
export function loginThrottle(deps: Pick<ServerDeps, 'redis' | 'config' | 'logger'>): RequestHandler {
  const { config, redis } = deps;
  const outage = watchRedis(redis, deps.logger);
  const prefix = (name: string) => redisKey(config.REDIS_PREFIX, 'rl', name);
  const failsInRow = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: prefix('login-pair'),
    points: Number.MAX_SAFE_INTEGER,
    duration: PAIR_MEMORY_SECONDS,
  });
  const waiting = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: prefix('login-wait'),
    points: 1,
    duration: 1,
  });
  const accountFails = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: prefix('login-account'),
    points: Number.MAX_SAFE_INTEGER,
    duration: config.LOGIN_ACCOUNT_WINDOW_SECONDS,
  });

  /** Redis failing: the request goes on (a limiter outage must not lock everybody out). */
  const failOpen = (error: unknown): null => {
    if (isRedisUnavailable(error)) outage.failed(error);
    else deps.logger.warn({ err: error }, 'login throttle error');
    return null;
  };
  const consumed = (res: RateLimiterRes | Error): number => {
    if (res instanceof RateLimiterRes) return res.consumedPoints;
    throw res;
  };

  async function settle(account: string, pair: string, status: number, body: unknown): Promise<void> {
    if (status === 200) {
      await Promise.all([failsInRow.delete(pair), waiting.delete(pair)]);
      return;
    }
    if (!isFailure(body)) return;
    const [n, total] = await Promise.all([
      failsInRow.consume(pair).then(consumed, consumed),
      accountFails.consume(account).then(consumed, consumed),
    ]);
    const free = total > config.LOGIN_ACCOUNT_FAILURES_MAX ? 0 : config.LOGIN_FREE_FAILURES;
    const wait = loginDelaySeconds(n, free, config.LOGIN_DELAY_MAX_SECONDS);
    if (wait > 0) await waiting.block(pair, wait);
  }

  return async (req: Request, res: Response, next) => {
    const email = (req.body as { email?: unknown } | undefined)?.email;
    if (outage.down || typeof email !== 'string' || email.trim() === '') {
      next();
      return;
    }
    const account = sha256(email.trim().toLowerCase()).slice(0, 32);
    const pair = `${account}:${sha256(req.ip ?? '').slice(0, 16)}`;
    const blocked = await waiting.get(pair).catch(failOpen);
    if (blocked && blocked.consumedPoints > 1 && blocked.msBeforeNext > 0) {
      const seconds = Math.max(1, Math.ceil(blocked.msBeforeNext / 1000));
      next(new AppError('TOO_MANY_REQUESTS', { status: 429, message: MSG.loginWait, retryAfter: seconds }));
      return;
    }
    // The answer waits until its failure is counted, so the next guess already meets its delay.
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      void settle(account, pair, res.statusCode, body)
        .catch(failOpen)
        .finally(() => json(body));
      return res;
    };
    next();
  };
}
