import type { Logger } from 'pino';
import { JOBS } from '@helix/shared';
import type { Config } from '@helix/server';
import { flushViews } from '@helix/server/views/flush-views';
import type { JobQueue } from '@helix/server/queue/job-queue';
import type { ModelJobDeps } from './handlers/index.ts';

/**
 * The worker's side of the models area: the flush-views schedule, and the flushes at start (batches a
 * crash left behind) and at shutdown (the last counts), so no view stays in Redis when the worker stops.
 * The connections are the worker runtime's (one PrismaClient per process).
 */
export interface ViewsRuntime {
  /** Flush what a previous run left and schedule flush-views every VIEW_FLUSH_INTERVAL_MS. */
  start(): Promise<void>;
  /** After the worker stopped taking jobs: one last flush. */
  stop(): Promise<void>;
}

export function createViewsRuntime(
  config: Config,
  logger: Logger,
  deps: ModelJobDeps & { queue: JobQueue },
): ViewsRuntime {
  const flush = (reason: string) =>
    flushViews(deps, { recover: true })
      .then((result) => logger.debug({ reason, ...result }, 'views flushed'))
      .catch((err: unknown) => logger.error({ err, reason }, 'views flush failed'));

  return {
    async start() {
      await flush('start');
      await deps.queue.schedule(JOBS.flushViews, config.VIEW_FLUSH_INTERVAL_MS, { reason: 'schedule' });
    },
    async stop() {
      await flush('shutdown');
    },
  };
}
