import { ERROR_CODES } from '@helix/shared/error-codes';
import { INVITE_ROWS_PER_JOB, JOBS } from '@helix/shared';
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
 * this adds only what a Redis outage or a lost Redis dropped. Then the rows of open batches that no
 * job will run any more (requeueOrphanRows) get a row job again, so every batch reaches done.
 */
export async function requeueOpenInvites(
  db: Db,
  queue: JobQueue,
): Promise<{ batches: number; invites: number; orphanRows: number }> {
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
  let orphanRows = 0;
  for (const batch of batches) orphanRows += await requeueOrphanRows(db, queue, batch.id);
  return { batches: batches.length, invites: invites.length, orphanRows };
}

/**
 * A batch's rows still open, not leased to a sender, and covered by no live job: neither the batch's
 * dispatch, nor the rows job of their run (cut as bulk-invite-dispatch cuts them), nor their own row job
 * is waiting, delayed or active. Whatever left them so (a job that gave up, a kept job id that an add
 * collapses into), each gets its bulk-invite-row job again (a finished job of that id is removed
 * first). A row sent meanwhile is skipped by the row job's claim, so this never sends twice.
 */
export async function requeueOrphanRows(db: Db, queue: JobQueue, batchId: number): Promise<number> {
  if ((await queue.liveJobIds(JOBS.bulkInviteDispatch, [batchJobId(batchId)])).size > 0) return 0;
  const rows = await db.$queryRaw<Array<{ id: number; open: boolean }>>`
    SELECT id, ("sentAt" IS NULL AND "failedAt" IS NULL AND "usedAt" IS NULL
      AND ("sendingUntil" IS NULL OR "sendingUntil" <= (clock_timestamp() AT TIME ZONE 'UTC'))) AS open
    FROM "Invite" WHERE "batchId" = ${batchId} ORDER BY id`;
  const runsWithOpen = new Map<string, number[]>();
  for (let from = 0; from < rows.length; from += INVITE_ROWS_PER_JOB) {
    const run = rows.slice(from, from + INVITE_ROWS_PER_JOB);
    const open = run.filter((row) => row.open).map((row) => row.id);
    if (open.length > 0) runsWithOpen.set(inviteRowsJobId(run[0]!.id), open);
  }
  if (runsWithOpen.size === 0) return 0;
  const liveRuns = await queue.liveJobIds(JOBS.bulkInviteRows, [...runsWithOpen.keys()]);
  const candidates = [...runsWithOpen].filter(([jobId]) => !liveRuns.has(jobId)).flatMap(([, ids]) => ids);
  if (candidates.length === 0) return 0;
  const liveRows = await queue.liveJobIds(JOBS.bulkInviteRow, candidates.map(inviteJobId));
  const orphans = candidates.filter((id) => !liveRows.has(inviteJobId(id)));
  if (orphans.length > 0) {
    await queue.enqueueAgain(
      JOBS.bulkInviteRow,
      orphans.map((inviteId) => ({ payload: { batchId, inviteId }, jobId: inviteJobId(inviteId) })),
    );
  }
  return orphans.length;
}
