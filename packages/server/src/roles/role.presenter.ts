import type { PermissionView, RoleView } from '@helix/shared/schemas/role';
import type { Prisma } from '../db.ts';
import type { PolicyActor } from '../sessions/session.service.ts';
import { roleAbilities } from './role.policy.ts';

export const roleInclude = {
  permissions: { include: { permission: true } },
  _count: { select: { users: true } },
} satisfies Prisma.RoleInclude;

export type RoleRecord = Prisma.RoleGetPayload<{ include: typeof roleInclude }>;

const byId = (a: PermissionView, b: PermissionView) => a.id - b.id;

/** A role as the roles table shows it, with what `actor` may do with it. */
export function presentRole(role: RoleRecord, actor: PolicyActor): RoleView {
  return {
    id: role.id,
    name: role.name,
    builtIn: role.builtIn,
    permissions: role.permissions
      .map(({ permission }) => ({ id: permission.id, name: permission.name }))
      .sort(byId),
    userCount: role._count.users,
    version: role.version,
    abilities: roleAbilities(actor, role),
  };
}
