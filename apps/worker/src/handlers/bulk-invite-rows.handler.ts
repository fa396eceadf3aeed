import type { SendInviteDeps } from '@helix/server/invites/send-invite';
import { sendInviteRows } from '@helix/server/invites/send-invite-rows';
import type { JobQueue } from '@helix/server/queue/job-queue';
import type { JobHandler } from '../registry.ts';

/**
 * bulk-invite-rows: a run of a batch's rows sent one after another over the pooled SMTP transport; the
 * rows it cannot finish become bulk-invite-row jobs (send-invite-rows.ts).
 */
export function bulkInviteRowsHandler(
  deps: SendInviteDeps & { queue: JobQueue },
): JobHandler<'bulk-invite-rows'> {
  return ({ batchId, inviteIds }, _job, _token, stopping) =>
    sendInviteRows(deps, batchId, inviteIds, { stopping });
}
