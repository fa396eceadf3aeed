import { ERROR_CODES } from '@helix/shared/schemas/outbox';
import { JOBS } from '@helix/shared';
import type { Logger } from 'pino';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import type { JobQueue } from '../queue/job-queue.ts';

/** One job per invitation and per batch: a second add (a retry, the recovery) collapses into it. */
export const inviteJobId = (inviteId: number) => `invite-${inviteId}`;
/** A bulk invite's run of rows (bulk-invite-rows), named by the run's first invitation. */
export const inviteRowsJobId = (firstInviteId: number) => `invite-rows-${firstInviteId}`;
export const batchJobId = (batchId: number) => `batch-${batchId}`;

const queueDown = (error: unknown) =>
  error instanceof AppError && error.code === ERROR_CODES.queueUnavailable;

/**
 * After the invitation committed: its send job. When Redis does not take it in time the invitation is
 * still stored and the worker's recovery (requeueOpenInvites, every minute) queues it, so the request
 * succeeds rather than asking the owner to repeat an invite that exists.
 */
export async function queueInviteSend(
  deps: { queue: JobQueue; logger: Logger },
  inviteId: number,
): Promise<void> {
  await deps.queue.enqueue(JOBS.sendInvite, { inviteId }, inviteJobId(inviteId)).catch((error: unknown) => {
    if (!queueDown(error)) throw error;
    deps.logger.warn({ inviteId }, 'invite stored, queue unavailable: the worker recovery will send it');
  });
}

/** After the batch committed: its dispatch job (same rule as queueInviteSend). */
export async function queueBatchDispatch(
  deps: { queue: JobQueue; logger: Logger },
  batchId: number,
): Promise<void> {
  await deps.queue
    .enqueue(JOBS.bulkInviteDispatch, { batchId }, batchJobId(batchId))
    .catch((error: unknown) => {
      if (!queueDown(error)) throw error;
      deps.logger.warn({ batchId }, 'batch stored, queue unavailable: the worker recovery will send it');
    });
}

/**
 * The worker's recovery (at start and every minute): a dispatch for every open batch and a send-invite
 * for every open single invitation. A job that exists (waiting, delayed, active, kept) is left alone, so
 * this adds only what a Redis outage or a lost Redis dropped.
 */
export async function requeueOpenInvites(
  db: Db,
  queue: JobQueue,
): Promise<{ batches: number; invites: number }> {
  const batches = await db.bulkInviteBatch.findMany({
    where: { status: { in: ['pending', 'processing'] } },
    select: { id: true },
  });
  if (batches.length > 0) {
    await queue.enqueueMany(
      JOBS.bulkInviteDispatch,
      batches.map((b) => ({ payload: { batchId: b.id }, jobId: batchJobId(b.id) })),
    );
  }
  const invites = await db.invite.findMany({
    where: { batchId: null, sentAt: null, failedAt: null, usedAt: null, expiresAt: { gt: new Date() } },
    select: { id: true },
  });
  if (invites.length > 0) {
    await queue.enqueueMany(
      JOBS.sendInvite,
      invites.map((i) => ({ payload: { inviteId: i.id }, jobId: inviteJobId(i.id) })),
    );
  }
  return { batches: batches.length, invites: invites.length };
}
