import { Semaphore, TimeoutError } from 'redis-semaphore';
import { MSG } from '@helix/shared';
import { IMAGE_CHECKS_PER_TENANT } from '@helix/shared/images';
import { ERROR_CODES } from '@helix/shared/error-codes';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { redisKey } from '../redis.ts';

/** A slot is given back by its holder; if the API dies holding it, Redis forgets it after this. */
const SLOT_LEASE_MS = 15_000;

export interface ImageSlot {
  release(): Promise<void>;
}

/** ioredis's answer to a command Redis did not answer within REDIS_COMMAND_TIMEOUT_MS (a slow Redis, still there). */
const isCommandTimeout = (error: unknown): boolean =>
  error instanceof Error && error.message === 'Command timed out';

/**
 * One of the tenant's image-check slots (IMAGE_CHECKS_PER_TENANT, a Redis semaphore shared by every
 * API process): so one tenant's uploads never fill the images queue and another tenant's picture never
 * waits behind them. A tenant's next upload waits its turn for up to `waitMs`, then gets 429
 * IMAGE_CHECK_BUSY with Retry-After; if Redis cannot be asked, the check cannot run either (503).
 *
 * A command that times out while the upload waits (a loaded Redis, still connected) does not end the
 * wait: the slot that late command may have taken is given back (this upload's identifier), and the
 * upload keeps looking for the time left. Seen in the image-bombs fault case: one slow command among a
 * wait's hundred made a bomb's upload a 503.
 */
export async function tenantImageSlot(
  deps: Pick<ServerDeps, 'redis' | 'config' | 'logger'>,
  tenantId: number,
  field: string,
  limits: { limit: number; waitMs: number } = IMAGE_CHECKS_PER_TENANT,
): Promise<ImageSlot> {
  const key = redisKey(deps.config.REDIS_PREFIX, 'image-check', String(tenantId));
  const deadline = Date.now() + limits.waitMs;
  const slotOf = (acquireTimeout: number, identifier?: string) =>
    new Semaphore(deps.redis, key, limits.limit, {
      lockTimeout: SLOT_LEASE_MS,
      acquireTimeout,
      retryInterval: 100,
      onLockLost: (err) => deps.logger.warn({ err, tenantId }, 'image check slot lost (Redis)'),
      ...(identifier ? { identifier } : {}),
    });
  let semaphore = slotOf(limits.waitMs);
  for (;;) {
    try {
      await semaphore.acquire();
      break;
    } catch (error) {
      if (error instanceof TimeoutError) {
        throw new AppError(ERROR_CODES.imageCheckBusy, {
          status: 429,
          message: MSG.imageCheckBusy,
          errors: { [field]: MSG.imageCheckBusy },
          retryAfter: 5,
        });
      }
      const left = deadline - Date.now();
      if (!isCommandTimeout(error) || left <= 0) {
        deps.logger.warn({ err: error, tenantId }, 'image check slot not available (Redis)');
        throw imageCheckUnavailable(field);
      }
      const { identifier } = semaphore;
      await new Semaphore(deps.redis, key, limits.limit, { identifier, acquiredExternally: true })
        .release()
        .catch(() => undefined);
      semaphore = slotOf(left, identifier);
    }
  }
  const held = semaphore;
  return {
    release: () =>
      held
        .release()
        .catch((err: unknown) => deps.logger.warn({ err, tenantId }, 'image check slot not released')),
  };
}

/** The image check could not run or did not answer in time: 503, try again shortly. */
export function imageCheckUnavailable(field: string): AppError {
  return new AppError(ERROR_CODES.imageCheckUnavailable, {
    status: 503,
    message: MSG.imageCheckUnavailable,
    error: 'Service Unavailable',
    errors: { [field]: MSG.imageCheckUnavailable },
    retryAfter: 10,
  });
}
