import { MSG, type Permission } from '@helix/shared';
import type { TenantUserAbilities } from '@helix/shared/schemas/abilities';
import { AppError } from '../errors.ts';
import { canInviteUsers, canResendInvite } from '../invites/invite.policy.ts';
import type { PolicyActor } from '../sessions/session.service.ts';

export type UserAction = 'list' | 'view' | 'delete' | 'invite';

/** The user a rule is checked against (already read through tenantScope: visible to the actor). */
export interface UserTarget {
  id: number;
  tenantId: number;
  isOwner: boolean;
  isAdmin: boolean;
}

const NEEDS: Record<UserAction, Permission> = {
  list: 'User.listing.view',
  view: 'User.detail.view',
  delete: 'User.delete',
  invite: 'User.invite',
};

/** Why `actor` may not `delete` `target`, or null when it may. */
export function deleteRefusal(actor: PolicyActor, target: UserTarget): string | null {
  if (!actor.permissions.includes('User.delete')) return MSG.unauthorizedAccess;
  // administration-content 2: the delete button is disabled for an admin (platform) on the detail page.
  if (actor.user.isAdmin) return MSG.adminCannotDeleteUsers;
  if (target.tenantId !== actor.tenant.id) return MSG.unauthorizedAccess;
  if (target.isOwner || target.isAdmin || target.id === actor.user.id) return MSG.ownerCannotBeDeleted;
  return null;
}

/** The tenant's users list (a platform admin lists every user through the platform list instead). */
export const canListUsers = (actor: PolicyActor): boolean =>
  actor.permissions.includes(NEEDS.list) && !actor.user.isAdmin;

/** A user's detail: User.detail.view, and the user is of the actor's tenant (a platform admin: any). */
export const canViewUser = (actor: PolicyActor, target?: Pick<UserTarget, 'tenantId'>): boolean =>
  actor.permissions.includes(NEEDS.view) &&
  (!target || actor.user.isAdmin || target.tenantId === actor.tenant.id);

export const canDeleteUser = (actor: PolicyActor, target: UserTarget): boolean =>
  deleteRefusal(actor, target) === null;

/** What `actor` may do with a user of the tenant (users list rows, user detail). */
export function tenantUserAbilities(
  actor: PolicyActor,
  target: UserTarget & { hasPassword: boolean },
): TenantUserAbilities {
  return {
    view: canViewUser(actor, target),
    resend: canResendInvite(actor, target),
    delete: canDeleteUser(actor, target),
  };
}

/**
 * The user policy (one per resource, checked in the command). The tenant's users list, invites and
 * deletes belong to customer tenants: a platform admin lists every user through the platform users
 * list and cannot invite into or delete from a tenant; anyone else needs the action's permission, and
 * acts only on users of their own tenant (the caller reads the target through tenantScope first).
 */
export function authorizeUser(actor: PolicyActor, action: UserAction, target?: UserTarget): void {
  if (!actor.permissions.includes(NEEDS[action])) throw AppError.forbidden();
  switch (action) {
    case 'list':
      if (!canListUsers(actor)) throw AppError.forbidden();
      return;
    case 'invite':
      if (!canInviteUsers(actor)) throw AppError.forbidden();
      return;
    case 'view':
      if (!canViewUser(actor, target)) throw AppError.notFound();
      return;
    case 'delete': {
      const refusal = target ? deleteRefusal(actor, target) : null;
      if (refusal) throw AppError.forbidden(refusal);
      return;
    }
  }
}
