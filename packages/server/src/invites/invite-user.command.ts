import { ERROR_CODES } from '@helix/shared/error-codes';
import { MSG } from '@helix/shared';
import type { InviteRequest } from '@helix/shared/schemas/invite';
import type { z } from 'zod';
import { conflictFromUniqueViolation } from '../accounts/register.command.ts';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorizeInvite } from './invite.policy.ts';
import { addressOwners } from './invite-elsewhere.ts';
import { createInvitedUsers } from './invited-users.ts';
import { queueInviteSend } from './invite-jobs.ts';
import { lockSeats } from './seats.ts';
import { afterCommit, withTransaction } from '../db/transaction.ts';

export const usersLimitExceeded = () =>
  new AppError(ERROR_CODES.usersLimitExceeds, { status: 409, message: MSG.usersLimitExceeds });

export const inviteExpiry = (deps: Pick<ServerDeps, 'config'>, now: Date) =>
  new Date(now.getTime() + deps.config.INVITE_TOKEN_TTL_HOURS * 3600_000);

/**
 * POST /user/invite: a user of the actor's tenant without a password, an invitation (single use,
 * expiring after INVITE_TOKEN_TTL_HOURS) and its e-mail through the worker (send-invite, enqueued after
 * the commit, jobId `invite-<id>`). The seat limit is checked with the subscription row locked.
 * An address with an account at another tenant is answered the same (docs/invite-privacy.md).
 */
export async function inviteUser(
  deps: Pick<ServerDeps, 'db' | 'queue' | 'config' | 'logger'>,
  actor: Actor,
  input: z.output<typeof InviteRequest>,
  now = new Date(),
): Promise<{ message: string }> {
  authorizeInvite(actor, 'create');
  let inviteId: number;
  try {
    inviteId = await withTransaction(deps.db, async (tx) => {
      const seats = await lockSeats(tx, actor.tenant.id);
      if (seats.used + 1 > seats.limit) throw usersLimitExceeded();
      // The spec's answer only for an address of this tenant; one with an account elsewhere is answered
      // like a new one and its owner gets a notice instead (invite-elsewhere.ts).
      const owners = await addressOwners(tx, actor.tenant.id, [input.email]);
      if (owners.own.has(input.email)) throw AppError.conflict(MSG.emailTaken, { email: MSG.emailTaken });
      const [created] = await createInvitedUsers(tx, {
        tenantId: actor.tenant.id,
        invitedById: actor.user.id,
        rows: [{ ...input, elsewhere: owners.elsewhere.has(input.email) }],
        expiresAt: inviteExpiry(deps, now),
      });
      return created!.inviteId;
    });
  } catch (error) {
    throw conflictFromUniqueViolation(error) ?? error;
  }
  // After the commit of the outermost transaction (an Idempotency-Key request holds one open).
  await afterCommit(() => queueInviteSend(deps, inviteId));
  return { message: MSG.resetEmailSent(input.email) };
}
