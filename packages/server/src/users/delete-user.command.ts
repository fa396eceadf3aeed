import { MSG } from '@helix/shared';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { endUserSessions } from '../sessions/session.service.ts';
import { tenantScope } from '../tenants/tenant-scope.ts';
import { authorizeUser } from './user.policy.ts';
import { shownEmail } from '../invites/invite-elsewhere.ts';
import { withTransaction } from '../db/transaction.ts';

/**
 * POST /user/delete (owner with User.delete; never the owner themselves, never by a platform admin).
 * In one transaction:
 * - the user row stays (their view history counts for the tenant) but is marked deleted and stripped
 *   of personal data: name, e-mail and username are replaced, password and Google link removed, so the
 *   address can be invited again;
 * - every session ends at once (reason user_deleted: the next request answers 401);
 * - open invitations are retired (their links stop working);
 * - embed and share links the user created are revoked: access given by someone who left ends with them
 *   (the owner makes new links). The embed access cache may serve a link for EMBED_ACCESS_CACHE_MS more.
 */
export async function deleteUser(
  db: Db,
  actor: Actor,
  input: { id: number; email?: string },
  now = new Date(),
): Promise<{ message: string }> {
  authorizeUser(actor, 'delete');
  const target = await db.user.findFirst({
    where: { id: input.id, deletedAt: null, ...tenantScope(actor) },
    select: { id: true, tenantId: true, isOwner: true, isAdmin: true, email: true, elsewhereEmail: true },
  });
  const shown = target && shownEmail(target);
  if (!target || (input.email !== undefined && input.email.trim().toLowerCase() !== shown)) {
    throw AppError.notFound();
  }
  authorizeUser(actor, 'delete', target);

  await withTransaction(db, async (tx) => {
    const marked = await tx.user.updateMany({
      where: { id: target.id, deletedAt: null },
      data: {
        deletedAt: now,
        name: 'Deleted user',
        email: `deleted-${target.id}@deleted.invalid`,
        elsewhereEmail: null,
        userName: `deleted.${target.id}`,
        passwordHash: null,
        googleId: null,
        profilePicture: null,
      },
    });
    if (marked.count !== 1) throw AppError.notFound();
    await endUserSessions(tx, target.id, 'user_deleted');
    await tx.invite.updateMany({
      where: { userId: target.id, usedAt: null, expiresAt: { gt: now } },
      data: { expiresAt: now },
    });
    await tx.embedToken.updateMany({
      where: { createdById: target.id, revokedAt: null },
      data: { revokedAt: now },
    });
  });
  return { message: MSG.userDeleted };
}
