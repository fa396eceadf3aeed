import { MSG } from '@helix/shared';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { ownTenant } from '../tenants/tenant-scope.ts';
import { randomToken, sha256 } from '../tokens.ts';
import { authorizeInvite } from './invite.policy.ts';
import { inviteExpiry } from './invite-user.command.ts';
import { afterCommit, withTransaction } from '../db/transaction.ts';
import { queueInviteSend } from './invite-jobs.ts';
import { shownEmail } from './invite-elsewhere.ts';

/**
 * POST /user/resend-invite: for a user of the tenant who has not set a password yet, every open
 * invitation is retired (its link stops working) and a new one is made and sent. This is the one
 * deliberate rotation of an invitation link: the owner resends because the old mail was lost or may
 * have reached the wrong hands; retries of one invitation always mail the same link (send-invite.ts).
 * For an invite of an address elsewhere the new row's job mails the notice again (invite-elsewhere.ts).
 */
export async function resendInvite(
  deps: Pick<ServerDeps, 'db' | 'queue' | 'config' | 'logger'>,
  actor: Actor,
  input: { id: number },
  now = new Date(),
): Promise<{ message: string }> {
  authorizeInvite(actor, 'resend');
  const user = await deps.db.user.findFirst({
    where: { id: input.id, deletedAt: null, ...ownTenant(actor) },
    select: { id: true, email: true, elsewhereEmail: true, passwordHash: true },
  });
  if (!user) throw AppError.notFound();
  if (user.passwordHash !== null) throw AppError.conflict(MSG.inviteAlreadyAccepted);

  const invite = await withTransaction(deps.db, async (tx) => {
    await tx.invite.updateMany({
      where: { userId: user.id, usedAt: null, expiresAt: { gt: now } },
      data: { expiresAt: now },
    });
    return tx.invite.create({
      data: {
        tenantId: actor.tenant.id,
        userId: user.id,
        invitedById: actor.user.id,
        tokenHash: sha256(randomToken()),
        expiresAt: inviteExpiry(deps, now),
      },
      select: { id: true },
    });
  });
  await afterCommit(() => queueInviteSend(deps, invite.id));
  return { message: MSG.resetEmailSent(shownEmail(user)) };
}
