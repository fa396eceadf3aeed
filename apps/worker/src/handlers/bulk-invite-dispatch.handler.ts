import { INVITE_ROWS_PER_JOB, JOBS } from '@helix/shared';
import type { Db } from '@helix/server/db';
import { inviteRowsJobId } from '@helix/server/invites/invite-jobs';
import type { JobQueue } from '@helix/server/queue/job-queue';
import type { JobHandler } from '../registry.ts';

/** Invitations read per page: a whole number of runs, so the runs are the same on every dispatch. */
const PAGE = INVITE_ROWS_PER_JOB * 50;

/**
 * bulk-invite-dispatch: the batch's invitations in id order, cut into runs of INVITE_ROWS_PER_JOB; one
 * bulk-invite-rows job per run with a row not yet settled, with jobId `invite-rows-<first id of the
 * run>`. The runs are cut from every row, settled or not, so they come out the same each time: BullMQ
 * ignores an add whose jobId exists, and a second dispatch (a retry, the worker's recovery) adds only
 * the runs that are missing. The e-mail itself is guarded by the invitation's lease and sent marker.
 */
export function bulkInviteDispatchHandler(deps: {
  db: Db;
  queue: JobQueue;
}): JobHandler<'bulk-invite-dispatch'> {
  return async ({ batchId }) => {
    let after = 0;
    let added = 0;
    for (;;) {
      const invites = await deps.db.invite.findMany({
        where: { batchId, id: { gt: after } },
        select: { id: true, sentAt: true, failedAt: true },
        orderBy: { id: 'asc' },
        take: PAGE,
      });
      if (invites.length === 0) return { added };
      const runs: Array<{ payload: { batchId: number; inviteIds: number[] }; jobId: string }> = [];
      for (let from = 0; from < invites.length; from += INVITE_ROWS_PER_JOB) {
        const run = invites.slice(from, from + INVITE_ROWS_PER_JOB);
        const open = run.filter((invite) => !invite.sentAt && !invite.failedAt).map((invite) => invite.id);
        if (open.length > 0)
          runs.push({ payload: { batchId, inviteIds: open }, jobId: inviteRowsJobId(run[0]!.id) });
      }
      if (runs.length > 0) await deps.queue.enqueueMany(JOBS.bulkInviteRows, runs);
      added += runs.reduce((sum, run) => sum + run.payload.inviteIds.length, 0);
      after = invites[invites.length - 1]!.id;
    }
  };
}
