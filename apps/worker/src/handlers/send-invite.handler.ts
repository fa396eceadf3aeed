import type { SendInviteDeps } from '@helix/server/invites/send-invite';
import { runInviteJob } from './invite-job.ts';
import type { JobHandler } from '../registry.ts';

/** send-invite: a single invitation (or a resent one), at most one e-mail per Invite row. */
export function sendInviteHandler(deps: SendInviteDeps): JobHandler<'send-invite'> {
  return (payload, job, token) => runInviteJob(deps, payload.inviteId, job, token);
}
