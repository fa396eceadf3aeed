import { Queue } from 'bullmq';
import { BULK_INVITE_JOBS, BULK_INVITE_QUEUE } from '@helix/shared';
import type { ServerDeps } from '../deps.ts';

/** A row that keeps failing is retried with backoff (2 s doubling), six attempts in all. */
export const BULK_ROW_ATTEMPTS = 6;

const queues = new WeakMap<object, Queue>();

/**
 * The producer of the bulk-invite queue, one per JobQueue: it shares that queue's Redis connection,
 * which the JobQueue's owner closes.
 */
export function bulkInviteQueue(deps: Pick<ServerDeps, 'queue' | 'config'>): Queue {
  let queue = queues.get(deps.queue);
  if (!queue) {
    queue = new Queue(BULK_INVITE_QUEUE, {
      connection: deps.queue.queue.opts.connection,
      prefix: deps.config.REDIS_PREFIX,
      defaultJobOptions: {
        attempts: BULK_ROW_ATTEMPTS,
        backoff: { type: 'exponential', delay: 2000 },
        removeOnComplete: { age: 24 * 3600, count: 20_000 },
        removeOnFail: { age: 30 * 24 * 3600, count: 20_000 },
      },
    });
    queues.set(deps.queue, queue);
  }
  return queue;
}

/** Starts (or restarts: nothing is added twice) the sending of a batch. */
export async function dispatchBatch(queue: Queue, batchId: number): Promise<void> {
  await queue.add(BULK_INVITE_JOBS.dispatch.name, { batchId }, { jobId: `batch-${batchId}`, attempts: 10 });
}
