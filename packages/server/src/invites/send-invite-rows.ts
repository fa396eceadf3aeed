import { JOBS } from '@helix/shared';
import type { JobQueue } from '../queue/job-queue.ts';
import { inviteJobId } from './invite-jobs.ts';
import {
  claimInvites,
  deliverClaimed,
  INVITE_SEND_LEASE_MS,
  isPermanentSendError,
  leasedAmong,
  markInviteFailed,
  releaseInvites,
  sendFailureReason,
  type SendInviteDeps,
} from './send-invite.ts';

export interface InviteRowsOutcome {
  sent: number;
  /** Settled without an e-mail (sent already, user deleted, invitation retired). */
  skipped: number;
  /** Refused for good (SMTP 5xx): failed with the reason, as the row job does. */
  failed: number;
  /** Left to one bulk-invite-row job each. */
  handedOver: number;
}

/**
 * A bulk invite's rows job (bulk-invite-rows): the rows claimed in one statement, then sent one after
 * another, each marked sent as soon as the SMTP server accepted it (sendInvite's steps, so the same
 * link, lease and at-most-once-but-in-flight hold). The family runs 50 such jobs at once per worker
 * over the pooled SMTP connections. A rows job never retries a row itself; it leaves it to a
 * bulk-invite-row job (jobId invite-<id>, the e-mail retry policy):
 * - a row another attempt holds: the row job looks again when that lease ends;
 * - a row whose send failed for a reason a retry may change (SMTP down, a timeout), and with it the
 *   rows not tried yet, their leases released: the row jobs' backoff paces the retries, not this job;
 * - the rows not sent once half the lease has passed (a very slow SMTP server): no row is sent on a
 *   lease that may have ended;
 * - the rows not sent when the worker is stopping (`stopping`): a rolling restart waits for one
 *   e-mail per job, not for a whole run.
 * A refusal no retry changes (SMTP 5xx, a template that cannot render) fails its row at once.
 */
export async function sendInviteRows(
  deps: SendInviteDeps & { queue: JobQueue },
  batchId: number,
  inviteIds: readonly number[],
  options: { stopping?: AbortSignal } = {},
): Promise<InviteRowsOutcome> {
  const leaseMs = deps.leaseMs ?? INVITE_SEND_LEASE_MS;
  const claimedAt = Date.now();
  // In id order: the rows go out in the order of the file.
  const claimed = (await claimInvites(deps, inviteIds)).sort((a, b) => a.id - b.id);
  const claimedIds = new Set(claimed.map((invite) => invite.id));
  const handOver = [
    ...(
      await leasedAmong(
        deps.db,
        inviteIds.filter((id) => !claimedIds.has(id)),
      )
    ).keys(),
  ];
  const outcome: InviteRowsOutcome = { sent: 0, skipped: 0, failed: 0, handedOver: 0 };

  let next = 0;
  const goOn = () => !options.stopping?.aborted && Date.now() - claimedAt < leaseMs / 2;
  while (next < claimed.length && goOn()) {
    const invite = claimed[next]!;
    next += 1;
    try {
      outcome[(await deliverClaimed(deps, invite)) === 'sent' ? 'sent' : 'skipped'] += 1;
    } catch (error) {
      if (!isPermanentSendError(error)) {
        // deliverClaimed released this row's lease.
        handOver.push(invite.id);
        break;
      }
      await markInviteFailed(deps.db, invite.id, sendFailureReason(error));
      outcome.failed += 1;
    }
  }
  const untried = claimed.slice(next).map((invite) => invite.id);
  await releaseInvites(deps.db, untried);
  handOver.push(...untried);

  if (handOver.length > 0) {
    await deps.queue.enqueueMany(
      JOBS.bulkInviteRow,
      handOver.map((inviteId) => ({ payload: { batchId, inviteId }, jobId: inviteJobId(inviteId) })),
    );
  }
  outcome.handedOver = handOver.length;
  return outcome;
}
