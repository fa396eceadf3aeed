import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { jobNamed } from '@helix/shared';
import type { JobQueue } from '@helix/server/queue/job-queue';

/** The one queue every job shared before the queue families (until November 2026). */
export const LEGACY_QUEUE = 'helix';

/**
 * After an upgrade, jobs still waiting in the old shared queue move to their family's queue (same
 * name, payload and jobId), and its schedulers are removed (the families schedule their own): no
 * password reset or billing e-mail queued before the upgrade is stranded. Failed jobs stay where
 * they are for inspection. Cheap when the old queue is empty (a few reads).
 */
export async function moveLegacyJobs(
  connection: Redis,
  prefix: string,
  queue: JobQueue,
  logger: Logger,
): Promise<number> {
  const legacy = new Queue(LEGACY_QUEUE, { connection, prefix });
  try {
    for (const scheduler of await legacy.getJobSchedulers()) {
      await legacy.removeJobScheduler(scheduler.key);
    }
    let moved = 0;
    for (const job of await legacy.getJobs(['waiting', 'delayed', 'prioritized'])) {
      const definition = jobNamed(job.name);
      if (!definition || !job.id) continue;
      // A scheduler's next run: the family's own scheduler makes it again.
      if (job.id.startsWith('repeat:')) {
        await job.remove();
        continue;
      }
      await queue.queueFor(definition).add(job.name, job.data, { jobId: job.id });
      await job.remove();
      moved += 1;
    }
    if (moved > 0) logger.info({ moved }, 'jobs of the old shared queue moved to their families');
    return moved;
  } finally {
    await legacy.close();
  }
}
