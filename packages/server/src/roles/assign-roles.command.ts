import { BUILT_IN_ROLES, MSG } from '@helix/shared';
import type { AssignRoles } from '@helix/shared/schemas/role';
import type { z } from 'zod';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { tenantScope } from '../tenants/tenant-scope.ts';
import { authorize } from './role.policy.ts';

type AssignInput = z.output<typeof AssignRoles>;

/**
 * POST /user/assignRoles: the user's roles become exactly `roles` (several allowed). Permissions are
 * computed from the roles on every request (sessions/session.service.ts#authenticate loads them with
 * the session; nothing caches them), so the change applies to the user's next request.
 */
export async function assignRoles(
  db: Db,
  actor: Actor,
  input: AssignInput,
): Promise<{ message: string; roles: { id: number; name: string }[] }> {
  authorize(actor, 'assign');
  const user = await db.user.findFirst({
    where: { id: input.id, deletedAt: null, ...tenantScope(actor) },
    select: { id: true },
  });
  if (!user) throw AppError.notFound();
  const roles = await db.role.findMany({
    where: { id: { in: input.roles } },
    select: { id: true, name: true },
    orderBy: { id: 'asc' },
  });
  if (roles.length !== input.roles.length) throw AppError.field('roles', MSG.unknownRoles, 400);
  if (user.id === actor.user.id && !roles.some((r) => r.name === BUILT_IN_ROLES.admin)) {
    throw AppError.field('roles', MSG.ownAdminRoleKept, 400);
  }
  await db.$transaction([
    db.userRole.deleteMany({ where: { userId: user.id, roleId: { notIn: input.roles } } }),
    db.userRole.createMany({
      data: input.roles.map((roleId) => ({ userId: user.id, roleId })),
      skipDuplicates: true,
    }),
  ]);
  return { message: MSG.rolesAssigned, roles };
}
