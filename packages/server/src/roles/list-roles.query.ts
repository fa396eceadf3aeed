import type { PermissionView, RolePermissionsView, RoleView } from '@helix/shared/schemas/role';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorize } from './role.policy.ts';
import { presentRole, roleInclude } from './role.presenter.ts';

/** GET /role/all: every role with its permissions, by name. */
export async function listRoles(db: Db, actor: Actor): Promise<RoleView[]> {
  authorize(actor, 'list');
  const roles = await db.role.findMany({ include: roleInclude, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
  return roles.map((role) => presentRole(role, actor));
}

/** GET /permission/all: the permission vocabulary (the transfer list's two sides are cut from it). */
export async function listPermissions(db: Db, actor: Actor): Promise<PermissionView[]> {
  authorize(actor, 'list');
  return db.permission.findMany({ select: { id: true, name: true }, orderBy: { id: 'asc' } });
}

/** POST /role/permissions: what the role holds and what it does not (the spec's unAssignedPersmission). */
export async function rolePermissions(db: Db, actor: Actor, roleId: number): Promise<RolePermissionsView> {
  authorize(actor, 'list');
  const role = await db.role.findUnique({ where: { id: roleId }, include: roleInclude });
  if (!role) throw AppError.notFound();
  const all = await db.permission.findMany({ select: { id: true, name: true }, orderBy: { id: 'asc' } });
  const held = new Set(role.permissions.map((p) => p.permissionId));
  return {
    permissions: all.filter((p) => held.has(p.id)),
    unAssignedPersmission: all.filter((p) => !held.has(p.id)),
  };
}
