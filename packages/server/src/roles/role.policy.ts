import { ERROR_CODES } from '@helix/shared/error-codes';
import { MSG, type Permission } from '@helix/shared';
import type { RoleAbilities } from '@helix/shared/schemas/abilities';
import type { Role } from '../db.ts';
import { AppError } from '../errors.ts';
import { isPlatformAdmin } from '../models/model.policy.ts';
import type { PolicyActor } from '../sessions/session.service.ts';

export type RoleAction = 'list' | 'create' | 'update' | 'delete' | 'assign';

const NEEDS: Record<RoleAction, Permission> = {
  list: 'Role.listing.view',
  create: 'Role.create',
  update: 'Role.update',
  delete: 'Role.delete',
  assign: 'Role.assign',
};

/**
 * Roles are the platform's (one table for every tenant): only platform admins holding the action's
 * permission manage them. The built-in Admin and User roles are never deleted (nor renamed: sign-up
 * and invites look them up by name).
 */
const mayRoles = (actor: PolicyActor, action: RoleAction): boolean =>
  isPlatformAdmin(actor) && actor.permissions.includes(NEEDS[action]);

export const canListRoles = (actor: PolicyActor): boolean => mayRoles(actor, 'list');
export const canCreateRole = (actor: PolicyActor): boolean => mayRoles(actor, 'create');
export const canEditRole = (actor: PolicyActor, _role?: Pick<Role, 'builtIn'>): boolean =>
  mayRoles(actor, 'update');
export const canDeleteRole = (actor: PolicyActor, role: Pick<Role, 'builtIn'>): boolean =>
  mayRoles(actor, 'delete') && !role.builtIn;
export const canAssignRoles = (actor: PolicyActor): boolean => mayRoles(actor, 'assign');

/** What `actor` may do with `role` (the roles table). */
export const roleAbilities = (actor: PolicyActor, role: Pick<Role, 'builtIn'>): RoleAbilities => ({
  edit: canEditRole(actor, role),
  delete: canDeleteRole(actor, role),
});

/** The role policy, checked in the commands. */
export function authorize(actor: PolicyActor, action: RoleAction, role?: Pick<Role, 'builtIn'>): void {
  if (!mayRoles(actor, action)) throw AppError.forbidden();
  if (role && action === 'delete' && !canDeleteRole(actor, role)) {
    throw new AppError(ERROR_CODES.roleBuiltIn, { status: 403, message: MSG.builtInRoleLocked });
  }
}
