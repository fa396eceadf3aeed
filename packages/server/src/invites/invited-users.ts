import { randomBytes } from 'node:crypto';
import { BUILT_IN_ROLES } from '@helix/shared';
import type { Prisma } from '../db.ts';
import { randomToken, sha256 } from '../tokens.ts';
import { elsewherePlaceholder } from './invite-elsewhere.ts';

const CHUNK = 1000;

const chunks = <T>(items: T[]): T[][] => {
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) parts.push(items.slice(i, i + CHUNK));
  return parts;
};

/**
 * Invited users and their invitations, inside the caller's transaction: each user without a password
 * (isPassword false), role User, and a placeholder username that no sign-up can take (the pattern
 * allows no dot; the invitee picks theirs on joining). The invitation's token is derived by the
 * worker's first send attempt (a nonce kept on the row, send-invite.ts); until then the row holds the
 * hash of a token nobody knows.
 * A row `elsewhere` (an address with an account at another tenant) is stored under a placeholder
 * address with the typed one in `elsewhereEmail` (invite-elsewhere.ts); it looks like any other pending
 * invite to the tenant, and its job mails a notice instead of an invitation.
 * One statement per thousand rows (arrays through unnest): a 10,000-row bulk invite commits in about a
 * second instead of building 10,000 inserts.
 */
export async function createInvitedUsers(
  tx: Prisma.TransactionClient,
  input: {
    tenantId: number;
    invitedById: number;
    rows: ReadonlyArray<{ name: string; email: string; elsewhere?: boolean }>;
    expiresAt: Date;
    batchId?: number;
  },
): Promise<Array<{ inviteId: number; userId: number; email: string }>> {
  const role = await tx.role.findUnique({ where: { name: BUILT_IN_ROLES.user }, select: { id: true } });
  const out: Array<{ inviteId: number; userId: number; email: string }> = [];
  const now = new Date();
  for (const part of chunks([...input.rows])) {
    const users = await tx.$queryRaw<Array<{ id: number; email: string }>>`
      INSERT INTO "User" ("tenantId", name, email, "elsewhereEmail", "userName", "parentId", "isOwner", "createdAt", "updatedAt")
      SELECT ${input.tenantId}, r.name, r.email, r.elsewhere_email, r.user_name, ${input.invitedById}, false, ${now}, ${now}
      FROM unnest(${part.map((r) => r.name)}::text[],
                  ${part.map((r) => (r.elsewhere ? elsewherePlaceholder() : r.email))}::text[],
                  ${part.map((r) => (r.elsewhere ? r.email : null))}::text[],
                  ${part.map(() => `invite.${randomBytes(12).toString('hex')}`)}::text[])
           AS r(name, email, elsewhere_email, user_name)
      RETURNING id, COALESCE("elsewhereEmail", email) AS email`;
    const userIds = users.map((u) => u.id);
    if (role) {
      await tx.$executeRaw`
        INSERT INTO "UserRole" ("userId", "roleId") SELECT u, ${role.id} FROM unnest(${userIds}::int[]) AS u`;
    }
    const invites = await tx.$queryRaw<Array<{ id: number; userId: number }>>`
      INSERT INTO "Invite" ("tenantId", "userId", "invitedById", "tokenHash", "expiresAt", "batchId", "createdAt")
      SELECT ${input.tenantId}, r.user_id, ${input.invitedById}, r.token_hash, ${input.expiresAt},
             ${input.batchId ?? null}::int, ${now}
      FROM unnest(${userIds}::int[], ${userIds.map(() => sha256(randomToken()))}::text[]) AS r(user_id, token_hash)
      RETURNING id, "userId"`;
    const emailOf = new Map(users.map((u) => [u.id, u.email]));
    for (const invite of invites) {
      out.push({ inviteId: invite.id, userId: invite.userId, email: emailOf.get(invite.userId)! });
    }
  }
  return out;
}
