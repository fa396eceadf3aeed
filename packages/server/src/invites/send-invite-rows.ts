import { JOBS } from '@helix/shared';
import type { JobQueue } from '../queue/job-queue.ts';
import { inviteJobId } from './invite-jobs.ts';
import {
  claimInvites,
  deliverClaimed,
  INVITE_SEND_LEASE_MS,
  isPermanentSendError,
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
 * Rows claimed at a time. A worker killed mid-job leaves the rows it claimed and did not send held
 * until their lease ends (then a row job sends them), so a job claims a few at a time, not its run.
 * (10 halves the claim statements but leaves twice the rows held at a kill; 20 made the kill fault
 * case time out under CI load, docs/cluster-benchmarks.md.)
 */
export const INVITE_ROWS_PER_CLAIM = 5;

/**
 * A bulk invite's rows job (bulk-invite-rows): its rows claimed INVITE_ROWS_PER_CLAIM at a time, one
 * statement each, and sent one after another, each marked sent as soon as the SMTP server accepted it
 * (sendInvite's steps, so the same link, lease and at-most-once-but-in-flight hold; in the worker the
 * markers of the concurrent jobs' sends go together, invite-sent-marker.ts). The family runs
 * 50 such jobs at once per worker over the pooled SMTP connections. A rows job never retries a row
 * itself; it leaves it to a bulk-invite-row job (jobId invite-<id>, the e-mail retry policy):
 * - a row another attempt holds: the row job looks again when that lease ends;
 * - a row whose send failed for a reason a retry may change (SMTP down, a timeout), and with it every
 *   row not tried yet, leases released: the row jobs' backoff paces the retries, not this job;
 * - the rows not sent once half a claim's lease has passed (a very slow SMTP server): no row is sent
 *   on a lease that may have ended;
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
  const outcome: InviteRowsOutcome = { sent: 0, skipped: 0, failed: 0, handedOver: 0 };
  const handOver: number[] = [];
  // Set by a failure a retry may change, the half lease or the worker stopping: the rest is handed over.
  let done = false;
  const stopping = () => options.stopping?.aborted === true;

  let from = 0;
  for (; from < inviteIds.length && !done && !stopping(); from += INVITE_ROWS_PER_CLAIM) {
    const group = inviteIds.slice(from, from + INVITE_ROWS_PER_CLAIM);
    const claimedAt = Date.now();
    // In id order: the rows go out in the order of the file.
    // Claimed and held decided in one statement: a row is claimed, held (handed over) or settled.
    const { claimed: unordered, held } = await claimInvites(deps, group);
    const claimed = unordered.sort((a, b) => a.id - b.id);
    handOver.push(...held.keys());

    let next = 0;
    while (next < claimed.length && !done) {
      if (stopping() || Date.now() - claimedAt >= leaseMs / 2) {
        done = true;
        break;
      }
      const invite = claimed[next]!;
      next += 1;
      try {
        outcome[(await deliverClaimed(deps, invite)) === 'sent' ? 'sent' : 'skipped'] += 1;
      } catch (error) {
        if (!isPermanentSendError(error)) {
          // deliverClaimed released this row's lease.
          handOver.push(invite.id);
          done = true;
          break;
        }
        await markInviteFailed(deps.db, invite.id, sendFailureReason(error));
        outcome.failed += 1;
      }
    }
    const untried = claimed.slice(next).map((invite) => invite.id);
    await releaseInvites(deps.db, untried);
    handOver.push(...untried);
  }
  // The rows never claimed (a row job skips any that is settled meanwhile).
  handOver.push(...inviteIds.slice(from));

  if (handOver.length > 0) {
    await deps.queue.enqueueMany(
      JOBS.bulkInviteRow,
      handOver.map((inviteId) => ({ payload: { batchId, inviteId }, jobId: inviteJobId(inviteId) })),
    );
  }
  outcome.handedOver = handOver.length;
  return outcome;
}
