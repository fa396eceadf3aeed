import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { BULK_INVITE_JOBS, BULK_INVITE_QUEUE } from '@helix/shared';
import { BULK_ROW_ATTEMPTS, dispatchBatch } from '@helix/server/invites/bulk-invite.queue';
import type { SendInviteDeps } from '@helix/server/invites/send-invite';
import { runInviteJob } from './invite-job.ts';

const ROW_JOBS_PER_ADD = 1000;

export interface BulkInviteWorkerOptions {
  connection: Redis;
  prefix: string;
  deps: SendInviteDeps;
  logger: Logger;
  /** E-mails in flight at once. */
  concurrency?: number;
  /**
   * How long a job's lock lasts without renewal: a worker killed mid-job gives its jobs back after
   * about this long (plus stalledInterval), and the restarted worker sends what was not sent.
   */
  lockDuration?: number;
  stalledInterval?: number;
}

/**
 * bulk-invite-dispatch: one row job per invitation of the batch not yet settled, with jobId
 * `invite-<id>`: BullMQ ignores an add whose jobId exists, so a second dispatch (a retry, the start-up
 * recovery) adds only what is missing. The e-mail itself is guarded by the invitation's sent marker.
 */
async function dispatch(deps: SendInviteDeps, queue: Queue, batchId: number): Promise<number> {
  let after = 0;
  let added = 0;
  for (;;) {
    const invites = await deps.db.invite.findMany({
      where: { batchId, sentAt: null, failedAt: null, id: { gt: after } },
      select: { id: true },
      orderBy: { id: 'asc' },
      take: ROW_JOBS_PER_ADD,
    });
    if (invites.length === 0) return added;
    await queue.addBulk(
      invites.map((invite) => ({
        name: BULK_INVITE_JOBS.row.name,
        data: { batchId, inviteId: invite.id },
        opts: { jobId: `invite-${invite.id}`, attempts: BULK_ROW_ATTEMPTS },
      })),
    );
    added += invites.length;
    after = invites[invites.length - 1]!.id;
  }
}

/** The bulk-invite queue's own worker (its own concurrency: a big batch never delays other mail). */
export function startBulkInviteWorker(options: BulkInviteWorkerOptions) {
  const queue = new Queue(BULK_INVITE_QUEUE, { connection: options.connection, prefix: options.prefix });
  const worker = new Worker(
    BULK_INVITE_QUEUE,
    async (job: Job) => {
      if (job.name === BULK_INVITE_JOBS.dispatch.name) {
        const { batchId } = BULK_INVITE_JOBS.dispatch.payload.parse(job.data);
        return { added: await dispatch(options.deps, queue, batchId) };
      }
      if (job.name === BULK_INVITE_JOBS.row.name) {
        const parsed = BULK_INVITE_JOBS.row.payload.safeParse(job.data);
        if (!parsed.success) throw new UnrecoverableError(`Invalid payload for ${job.name}`);
        return runInviteJob(options.deps, parsed.data.inviteId, job);
      }
      throw new UnrecoverableError(`Unknown job ${job.name}`);
    },
    {
      connection: options.connection,
      prefix: options.prefix,
      concurrency: options.concurrency ?? 50,
      lockDuration: options.lockDuration ?? 15_000,
      stalledInterval: options.stalledInterval ?? 5_000,
      maxStalledCount: 3,
    },
  );
  worker.on('failed', (job, err) =>
    options.logger.warn({ jobId: job?.id, job: job?.name, attempt: job?.attemptsMade, err }, 'job failed'),
  );
  worker.on('error', (err) => options.logger.error({ err }, 'bulk invite worker error'));

  return {
    worker,
    /** Batches a crash (of the API before its dispatch, or of Redis) left unfinished are dispatched again. */
    async recover(): Promise<number> {
      const open = await options.deps.db.bulkInviteBatch.findMany({
        where: { status: { in: ['pending', 'processing'] } },
        select: { id: true },
      });
      for (const batch of open) await dispatchBatch(queue, batch.id);
      return open.length;
    },
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}
