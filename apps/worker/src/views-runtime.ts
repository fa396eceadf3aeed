import { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { JOBS, QUEUE_NAME } from '@helix/shared';
import type { Config } from '@helix/server';
import { createDb } from '@helix/server/db';
import { createRedis, type Redis } from '@helix/server/redis';
import { createStorage } from '@helix/server/storage/create-storage';
import { flushViews } from '@helix/server/views/flush-views';
import type { ModelJobDeps } from './handlers/index.ts';

/**
 * The worker's side of the models area: the dependencies of validate-image and flush-views, the
 * flush-views schedule, and the flushes at start (batches a crash left behind) and at shutdown (the
 * last counts), so no view stays in Redis when the worker stops.
 */
export interface ViewsRuntime {
  deps: ModelJobDeps;
  /** Flush what a previous run left and schedule flush-views every VIEW_FLUSH_INTERVAL_MS. */
  start(): Promise<void>;
  /** After the worker stopped taking jobs: one last flush, then close the connections. */
  stop(): Promise<void>;
}

export function createViewsRuntime(config: Config, logger: Logger, queueConnection: Redis): ViewsRuntime {
  const db = createDb(config.DATABASE_URL);
  const redis = createRedis(config.REDIS_URL);
  redis.on('error', (err) => logger.warn({ err }, 'redis (views) error'));
  const deps: ModelJobDeps = {
    db,
    redis,
    storage: createStorage(config),
    prefix: config.REDIS_PREFIX,
    logger,
  };
  const flush = (reason: string) =>
    flushViews(deps, { recover: true })
      .then((result) => logger.debug({ reason, ...result }, 'views flushed'))
      .catch((err: unknown) => logger.error({ err, reason }, 'views flush failed'));

  return {
    deps,
    async start() {
      await flush('start');
      const queue = new Queue(QUEUE_NAME, { connection: queueConnection, prefix: config.REDIS_PREFIX });
      try {
        await queue.upsertJobScheduler(
          JOBS.flushViews.name,
          { every: config.VIEW_FLUSH_INTERVAL_MS },
          {
            name: JOBS.flushViews.name,
            data: { reason: 'schedule' },
            opts: { attempts: 1, removeOnComplete: true, removeOnFail: { count: 100 } },
          },
        );
      } finally {
        await queue.close();
      }
    },
    async stop() {
      await flush('shutdown');
      await redis.quit().catch(() => redis.disconnect());
      await db.$disconnect();
    },
  };
}
