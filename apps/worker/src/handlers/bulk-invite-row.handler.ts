import type { SendInviteDeps } from '@helix/server/invites/send-invite';
import { runInviteJob } from './invite-job.ts';
import type { JobHandler } from '../registry.ts';

/**
 * bulk-invite-row: one row of a batch that its rows job left (held by another attempt, or a failure a
 * retry may change), sent like a single invitation with the e-mail retry policy (over the pooled SMTP
 * transport); the row that settles the batch's last invitation marks the batch done (send-invite.ts).
 */
export function bulkInviteRowHandler(deps: SendInviteDeps): JobHandler<'bulk-invite-row'> {
  return (payload, job, token) => runInviteJob(deps, payload.inviteId, job, token);
}
