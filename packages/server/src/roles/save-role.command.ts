import { BUILT_IN_ROLES, MSG, type Permission } from '@helix/shared';
import type { RoleSave, RoleSaved } from '@helix/shared/schemas/role';
import type { z } from 'zod';
import type { Db, Prisma } from '../db.ts';
import { AppError } from '../errors.ts';
import { uniqueViolation, violates } from '../prisma-errors.ts';
import type { Actor, PolicyActor } from '../sessions/session.service.ts';
import { authorize } from './role.policy.ts';
import { presentRole, roleInclude } from './role.presenter.ts';
import { noteAudit } from '../audit/audit-context.ts';
import { withTransaction } from '../db/transaction.ts';

type SaveInput = z.output<typeof RoleSave>;

/** Without these the Admin role could lock every platform admin out of role management. */
const ADMIN_ROLE_KEEPS: readonly Permission[] = ['Role.listing.view', 'Role.update'];

const nameTaken = () => AppError.conflict(MSG.roleNameTaken, { name: MSG.roleNameTaken });

async function assertNameFree(tx: Prisma.TransactionClient, name: string, exceptId?: number) {
  const clash = await tx.role.findFirst({
    where: { name: { equals: name, mode: 'insensitive' }, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) throw nameTaken();
}

async function permissionNames(tx: Prisma.TransactionClient, ids: number[]): Promise<string[]> {
  const found = await tx.permission.findMany({ where: { id: { in: ids } }, select: { name: true } });
  if (found.length !== ids.length) {
    throw AppError.badRequest(MSG.validationFailed, { permissions: MSG.validationFailed });
  }
  return found.map((p) => p.name);
}

/** The role changed (or went) under a save: a conflict with the role now, or 404. */
export async function roleConflict(
  tx: Prisma.TransactionClient,
  id: number,
  actor: PolicyActor,
): Promise<AppError> {
  const now = await tx.role.findUnique({ where: { id }, include: roleInclude });
  return now ? AppError.versionConflict(presentRole(now, actor)) : AppError.notFound();
}

/**
 * POST /role/create: id 0 creates a role, another id updates it (name and the full permission list).
 * Names are unique without regard to case ('Role Name already exists'); an edit that changes nothing
 * is refused ('No change in Data!'); built-in roles keep their names and at least one permission.
 * An update based on another version than the role's (`expectedVersion`, the If-Match header) answers
 * 409 VERSION_CONFLICT with the role as it is; every update increments the version.
 */
export async function saveRole(
  db: Db,
  actor: Actor,
  input: SaveInput,
  expectedVersion?: number,
): Promise<RoleSaved> {
  const creating = input.id === 0;
  authorize(actor, creating ? 'create' : 'update');
  try {
    const role = await withTransaction(db, async (tx) => {
      const names = await permissionNames(tx, input.permissions);
      if (creating) {
        await assertNameFree(tx, input.name);
        const created = await tx.role.create({
          data: {
            name: input.name,
            permissions: { create: input.permissions.map((permissionId) => ({ permissionId })) },
          },
          include: roleInclude,
        });
        noteAudit({ action: 'role.create', targetId: created.id, after: { permissions: names } });
        return created;
      }
      const current = await tx.role.findUnique({ where: { id: input.id }, include: roleInclude });
      if (!current) throw AppError.notFound();
      if (expectedVersion !== undefined && expectedVersion !== current.version) {
        throw AppError.versionConflict(presentRole(current, actor));
      }
      const before = new Set(current.permissions.map((p) => p.permissionId));
      const unchanged =
        current.name === input.name &&
        before.size === input.permissions.length &&
        input.permissions.every((id) => before.has(id));
      if (unchanged) throw AppError.badRequest(MSG.noChange);
      if (current.builtIn) {
        if (current.name !== input.name) throw AppError.field('name', MSG.builtInRoleLocked, 403);
        if (input.permissions.length === 0) {
          throw AppError.field('permissions', MSG.rolePermissionsRequired, 400);
        }
        if (current.name === BUILT_IN_ROLES.admin && !ADMIN_ROLE_KEEPS.every((p) => names.includes(p))) {
          throw AppError.field('permissions', MSG.adminRoleKeepsRoleAccess, 400);
        }
      }
      if (current.name !== input.name) await assertNameFree(tx, input.name, current.id);
      await tx.rolePermission.deleteMany({ where: { roleId: current.id } });
      await tx.rolePermission.createMany({
        data: input.permissions.map((permissionId) => ({ roleId: current.id, permissionId })),
      });
      // Optimistic: the row must still be at the version this save read.
      const updated = await tx.role.updateMany({
        where: { id: current.id, version: current.version },
        data: { name: input.name, version: { increment: 1 } },
      });
      if (updated.count === 0) throw await roleConflict(tx, current.id, actor);
      noteAudit({
        before: { name: current.name, permissions: current.permissions.map((p) => p.permission.name) },
        after: { name: input.name, permissions: names },
      });
      return tx.role.findUniqueOrThrow({ where: { id: current.id }, include: roleInclude });
    });
    return { message: creating ? MSG.roleCreated : MSG.roleUpdated, role: presentRole(role, actor) };
  } catch (error) {
    // Two saves of the same new name at once: the unique index decides.
    if (violates(uniqueViolation(error), 'Role', 'name')) throw nameTaken();
    throw error;
  }
}
