import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import {
  InviteSendLeased,
  isPermanentSendError,
  markInviteFailed,
  sendFailureReason as reasonOf,
  sendInvite,
  type SendInviteDeps,
  type SendInviteOutcome,
} from '@helix/server/invites/send-invite';

/**
 * One invitation e-mail as a job (single invite, resend, bulk row: the same code and the same retry
 * policy, MAIL_RETRY). A failure is retried by the queue; after the last attempt, or at once for a
 * refusal no retry changes (SMTP 5xx, a template that cannot render), the invitation is marked failed
 * with the reason, which the bulk invite page lists. A row whose send another attempt holds (a killed
 * worker's lease) is looked at again when the lease ends, without using up an attempt.
 */
export async function runInviteJob(
  deps: SendInviteDeps,
  inviteId: number,
  job: Pick<Job, 'attemptsMade' | 'opts' | 'moveToDelayed'>,
  token?: string,
): Promise<SendInviteOutcome> {
  try {
    return await sendInvite(deps, inviteId);
  } catch (error) {
    if (error instanceof InviteSendLeased) {
      // At the lease's end, no margin: the claim decides in one statement (send-invite.ts), so a look a
      // moment early is told to wait again, never dropped.
      await job.moveToDelayed(Date.now() + error.waitMs, token);
      throw new DelayedError();
    }
    const permanent = isPermanentSendError(error);
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (permanent || last) {
      await markInviteFailed(deps.db, inviteId, reasonOf(error));
      throw new UnrecoverableError(`invite ${inviteId} not sent: ${reasonOf(error)}`);
    }
    throw error;
  }
}
