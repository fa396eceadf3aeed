import { MSG, type JoinRequest } from '@helix/shared';
import type { AuthResponse } from '@helix/shared/schemas/session';
import type { z } from 'zod';
import { hashPassword } from '../auth/password.ts';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import { createSessionTx } from '../sessions/session.service.ts';
import { sha256 } from '../tokens.ts';
import { authResponse } from './auth-response.ts';
import { subscribeNewsletter } from './customer-tenant.ts';
import { assertAvailable, conflictFromUniqueViolation } from './register.command.ts';
import { withTransaction } from '../db/transaction.ts';

type JoinInput = z.output<typeof JoinRequest>;

const inviteInvalid = () => AppError.badRequest(MSG.inviteInvalid, { token: MSG.inviteInvalid });

/**
 * The invitation a link's token opens: unused, unexpired, of a user not deleted, not an invite of an
 * address elsewhere (docs/invite-privacy.md); null for any other
 * token ('This invitation link is invalid or has expired.').
 */
export async function openInvite(db: Db, token: string, now = new Date()) {
  const invite = await db.invite.findUnique({ where: { tokenHash: sha256(token) }, include: { user: true } });
  if (!invite || invite.usedAt || invite.expiresAt <= now || invite.user.deletedAt) return null;
  // An invite of an address with an account elsewhere is never accepted (its link is never mailed).
  if (invite.user.elsewhereEmail !== null) return null;
  return invite;
}

/**
 * Join by invitation: the invited user (created by the inviting admin, without a password) sets their
 * name, username and password, the invite is used up, and they are logged in to the inviting tenant.
 * authType is 'is-loggedin': the tenant already has its plan, there is nothing to choose.
 */
export async function join(
  db: Db,
  input: JoinInput,
  meta: { userAgent?: string | null } = {},
  now = new Date(),
): Promise<AuthResponse> {
  const invite = await openInvite(db, input.token, now);
  if (!invite) throw inviteInvalid();
  if (invite.user.email !== input.email) {
    throw AppError.badRequest(MSG.inviteEmailMismatch, { email: MSG.inviteEmailMismatch });
  }
  await assertAvailable(db, { userName: input.user_name }, invite.userId);
  const passwordHash = await hashPassword(input.password);

  try {
    const token = await withTransaction(db, async (tx) => {
      const used = await tx.invite.updateMany({
        where: { id: invite.id, usedAt: null },
        data: { usedAt: now },
      });
      if (used.count !== 1) throw inviteInvalid();
      await tx.user.update({
        where: { id: invite.userId },
        data: { name: input.name, userName: input.user_name, passwordHash, emailStatus: input.emailstatus },
      });
      if (input.emailstatus) await subscribeNewsletter(tx, invite.user.email);
      const { token } = await createSessionTx(tx, {
        userId: invite.userId,
        rememberMe: false,
        userAgent: meta.userAgent,
      });
      return token;
    });
    return await authResponse(db, {
      userId: invite.userId,
      token,
      authType: 'is-loggedin',
      rememberMe: false,
    });
  } catch (error) {
    throw conflictFromUniqueViolation(error) ?? error;
  }
}
