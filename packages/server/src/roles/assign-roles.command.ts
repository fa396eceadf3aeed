import { BUILT_IN_ROLES, MSG } from '@helix/shared';
import type { AssignRoles } from '@helix/shared/schemas/role';
import type { z } from 'zod';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { platformUserInclude, presentPlatformUser } from '../platform-users/list-platform-users.query.ts';
import { tenantScope } from '../tenants/tenant-scope.ts';
import { authorize } from './role.policy.ts';
import { noteAudit } from '../audit/audit-context.ts';
import { withTransaction } from '../db/transaction.ts';

type AssignInput = z.output<typeof AssignRoles>;

/**
 * POST /user/assignRoles: the user's roles become exactly `roles` (several allowed). Permissions are
 * computed from the roles on every request (sessions/session.service.ts#authenticate loads them with
 * the session; nothing caches them), so the change applies to the user's next request. The
 * assignment has its own version (User.rolesVersion): with `expectedVersion` (If-Match) an assignment
 * changed since answers 409 VERSION_CONFLICT with the user as the Assign Roles table shows them.
 */
export async function assignRoles(
  db: Db,
  actor: Actor,
  input: AssignInput,
  expectedVersion?: number,
): Promise<{ message: string; roles: { id: number; name: string }[]; rolesVersion: number }> {
  authorize(actor, 'assign');
  const where = { id: input.id, deletedAt: null, ...tenantScope(actor) };
  const user = await db.user.findFirst({ where, select: { id: true, rolesVersion: true } });
  if (!user) throw AppError.notFound();
  const conflict = async () => {
    const now = await db.user.findFirst({ where, include: platformUserInclude });
    return now ? AppError.versionConflict(presentPlatformUser(now, actor)) : AppError.notFound();
  };
  if (expectedVersion !== undefined && expectedVersion !== user.rolesVersion) throw await conflict();
  const roles = await db.role.findMany({
    where: { id: { in: input.roles } },
    select: { id: true, name: true },
    orderBy: { id: 'asc' },
  });
  if (roles.length !== input.roles.length) throw AppError.field('roles', MSG.unknownRoles, 400);
  if (user.id === actor.user.id && !roles.some((r) => r.name === BUILT_IN_ROLES.admin)) {
    throw AppError.field('roles', MSG.ownAdminRoleKept, 400);
  }
  const bumped = await withTransaction(db, async (tx) => {
    // Optimistic: the assignment must still be at the version this call read.
    const { count } = await tx.user.updateMany({
      where: { id: user.id, rolesVersion: user.rolesVersion },
      data: { rolesVersion: { increment: 1 } },
    });
    // A stale assignment changes nothing: rolled back, so no audit event is written either.
    if (count === 0) throw await conflict();
    const before = await tx.userRole.findMany({
      where: { userId: user.id },
      select: { role: { select: { name: true } } },
      orderBy: { roleId: 'asc' },
    });
    noteAudit({
      before: { roles: before.map((r) => r.role.name) },
      after: { roles: roles.map((r) => r.name) },
    });
    await tx.userRole.deleteMany({ where: { userId: user.id, roleId: { notIn: input.roles } } });
    await tx.userRole.createMany({
      data: input.roles.map((roleId) => ({ userId: user.id, roleId })),
      skipDuplicates: true,
    });
    return true;
  });
  if (!bumped) throw await conflict();
  return { message: MSG.rolesAssigned, roles, rolesVersion: user.rolesVersion + 1 };
}
