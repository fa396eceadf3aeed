import type { TenantUserView } from '@helix/shared/schemas/tenant-user';
import type { Prisma } from '../db.ts';

export const tenantUserSelect = {
  id: true,
  name: true,
  email: true,
  userName: true,
  passwordHash: true,
  isOwner: true,
  isAdmin: true,
  tenantId: true,
  createdAt: true,
  rolesVersion: true,
  roles: { select: { role: { select: { id: true, name: true } } } },
} satisfies Prisma.UserSelect;

export type TenantUserRecord = Prisma.UserGetPayload<{ select: typeof tenantUserSelect }>;

/** A user of the tenant as the users list shows it: the password hash only as isPassword. */
export function presentTenantUser(user: TenantUserRecord): TenantUserView {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    userName: user.userName,
    isPassword: user.passwordHash !== null,
    isOwner: user.isOwner,
    roles: user.roles.map(({ role }) => ({ id: role.id, name: role.name })).sort((a, b) => a.id - b.id),
    rolesVersion: user.rolesVersion,
    createdAt: user.createdAt.toISOString(),
  };
}
