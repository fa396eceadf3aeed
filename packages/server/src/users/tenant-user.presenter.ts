import type { TenantUserView } from '@helix/shared/schemas/tenant-user';
import type { Db, Prisma } from '../db.ts';
import { shownEmail } from '../invites/invite-elsewhere.ts';
import type { PolicyActor } from '../sessions/session.service.ts';
import { tenantUserAbilities } from './user.policy.ts';

export const tenantUserSelect = {
  id: true,
  name: true,
  email: true,
  elsewhereEmail: true,
  userName: true,
  passwordHash: true,
  googleId: true,
  isOwner: true,
  isAdmin: true,
  tenantId: true,
  createdAt: true,
  rolesVersion: true,
  roles: { select: { role: { select: { id: true, name: true } } } },
} satisfies Prisma.UserSelect;

export type TenantUserRecord = Prisma.UserGetPayload<{ select: typeof tenantUserSelect }>;

/**
 * A user of the tenant as the users list shows it: the password hash only as isPassword, the Google
 * id only as part of the status. `lastLoginAt` is the start of the user's latest session (a login,
 * a join by invitation or a Google sign-in each start one). `abilities`: what `actor` may do with it.
 */
export function presentTenantUser(
  user: TenantUserRecord,
  lastLoginAt: Date | null,
  actor: PolicyActor,
): TenantUserView {
  const joined = user.passwordHash !== null || user.googleId !== null || lastLoginAt !== null;
  return {
    id: user.id,
    name: user.name,
    // An invite of an address elsewhere shows the address the tenant typed, never the placeholder.
    email: shownEmail(user),
    userName: user.userName,
    isPassword: user.passwordHash !== null,
    isOwner: user.isOwner,
    roles: user.roles.map(({ role }) => ({ id: role.id, name: role.name })).sort((a, b) => a.id - b.id),
    rolesVersion: user.rolesVersion,
    createdAt: user.createdAt.toISOString(),
    status: joined ? 'active' : 'invited',
    lastLoginAt: lastLoginAt?.toISOString() ?? null,
    abilities: tenantUserAbilities(actor, { ...user, hasPassword: user.passwordHash !== null }),
  };
}

/** The latest login of each of these users (one grouped query; sessions are kept when they end). */
export async function lastLogins(db: Db, userIds: number[]): Promise<Map<number, Date>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.session.groupBy({
    by: ['userId'],
    where: { userId: { in: userIds } },
    _max: { createdAt: true },
  });
  return new Map(rows.flatMap((r) => (r._max.createdAt ? [[r.userId, r._max.createdAt] as const] : [])));
}
