import type { PermissionView, RoleView } from '@helix/shared/schemas/role';
import type { Prisma } from '../db.ts';

export const roleInclude = {
  permissions: { include: { permission: true } },
  _count: { select: { users: true } },
} satisfies Prisma.RoleInclude;

export type RoleRecord = Prisma.RoleGetPayload<{ include: typeof roleInclude }>;

const byId = (a: PermissionView, b: PermissionView) => a.id - b.id;

export function presentRole(role: RoleRecord): RoleView {
  return {
    id: role.id,
    name: role.name,
    builtIn: role.builtIn,
    permissions: role.permissions
      .map(({ permission }) => ({ id: permission.id, name: permission.name }))
      .sort(byId),
    userCount: role._count.users,
    version: role.version,
  };
}
