import { JOBS } from '@helix/shared';
import type { Db } from '@helix/server/db';
import { inviteJobId } from '@helix/server/invites/invite-jobs';
import type { JobQueue } from '@helix/server/queue/job-queue';
import type { JobHandler } from '../registry.ts';

const ROW_JOBS_PER_ADD = 1000;

/**
 * bulk-invite-dispatch: one row job per invitation of the batch not yet settled, with jobId
 * `invite-<id>`: BullMQ ignores an add whose jobId exists, so a second dispatch (a retry, the worker's
 * recovery) adds only what is missing. The e-mail itself is guarded by the invitation's lease and sent
 * marker.
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
        where: { batchId, sentAt: null, failedAt: null, id: { gt: after } },
        select: { id: true },
        orderBy: { id: 'asc' },
        take: ROW_JOBS_PER_ADD,
      });
      if (invites.length === 0) return { added };
      await deps.queue.enqueueMany(
        JOBS.bulkInviteRow,
        invites.map((invite) => ({
          payload: { batchId, inviteId: invite.id },
          jobId: inviteJobId(invite.id),
        })),
      );
      added += invites.length;
      after = invites[invites.length - 1]!.id;
    }
  };
}
