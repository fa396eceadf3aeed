import { ERROR_CODES } from '@helix/shared/schemas/outbox';
import { MSG, type Permission } from '@helix/shared';
import type { Role } from '../db.ts';
import { AppError } from '../errors.ts';
import { isPlatformAdmin } from '../models/model.policy.ts';
import type { Actor } from '../sessions/session.service.ts';

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
export function authorize(actor: Actor, action: RoleAction, role?: Pick<Role, 'builtIn'>): void {
  if (!isPlatformAdmin(actor) || !actor.permissions.includes(NEEDS[action])) throw AppError.forbidden();
  if (role?.builtIn && action === 'delete') {
    throw new AppError(ERROR_CODES.roleBuiltIn, { status: 403, message: MSG.builtInRoleLocked });
  }
}
