import type { Permission } from '@helix/shared';
import type { PlatformUserAbilities } from '@helix/shared/schemas/abilities';
import { AppError } from '../errors.ts';
import { isPlatformAdmin } from '../models/model.policy.ts';
import { canAssignRoles } from '../roles/role.policy.ts';
import type { PolicyActor } from '../sessions/session.service.ts';

export type PlatformUserAction = 'list' | 'add';

const holds = (actor: PolicyActor, permission: Permission) => actor.permissions.includes(permission);

/** The users table (/users): User.listing.view. */
export const canListPlatformUsers = (actor: PolicyActor): boolean =>
  isPlatformAdmin(actor) && holds(actor, 'User.listing.view');

/** The Assign Roles table (/permissions): Permission.listing.view. */
export const canListPlatformPermissions = (actor: PolicyActor): boolean =>
  isPlatformAdmin(actor) && holds(actor, 'Permission.listing.view');

/** Adding a customer (tenant, owner and a granted plan): User.invite. */
export const canAddPlatformUser = (actor: PolicyActor): boolean =>
  isPlatformAdmin(actor) && holds(actor, 'User.invite');

/** The platform's user detail page (/users/user-detail/{id}). */
export const canViewPlatformUser = (actor: PolicyActor): boolean =>
  isPlatformAdmin(actor) && holds(actor, 'User.detail.view');

/** What a platform admin may do with a user of the /users and /permissions tables. */
export const platformUserAbilities = (actor: PolicyActor): PlatformUserAbilities => ({
  view: canViewPlatformUser(actor),
  // administration-content 2: the /users row's delete is disabled (user.policy's deleteRefusal).
  delete: false,
  assignRoles: canAssignRoles(actor),
});

/**
 * The platform's view of every user: platform admins only. Either table lists them; adding a customer
 * needs User.invite.
 */
export function authorize(actor: PolicyActor, action: PlatformUserAction): void {
  const allowed =
    action === 'list'
      ? canListPlatformUsers(actor) || canListPlatformPermissions(actor)
      : canAddPlatformUser(actor);
  if (!allowed) throw AppError.forbidden();
}
