import type { PolicyActor } from '../sessions/session.service.ts';
import { AppError } from '../errors.ts';

export type InviteAction = 'create' | 'resend' | 'bulk' | 'viewBatch';

/**
 * Inviting (single, bulk, resend) and following a bulk invite need User.invite and happen in a
 * customer tenant. A platform admin does not invite into a tenant (they add users with
 * /users/add-user).
 */
export const canInviteUsers = (actor: PolicyActor): boolean =>
  actor.permissions.includes('User.invite') && !actor.user.isAdmin;

/**
 * Resending an invitation: the caller may invite, the user is of the caller's tenant and has not set a
 * password yet (the command answers 409 for one who has, as the list may be stale).
 */
export const canResendInvite = (
  actor: PolicyActor,
  target: { tenantId: number; hasPassword: boolean },
): boolean => canInviteUsers(actor) && target.tenantId === actor.tenant.id && !target.hasPassword;

/**
 * The invite policy, checked in the commands. The target, when there is one, was read through the
 * actor's own tenant already.
 */
export function authorizeInvite(actor: PolicyActor, _action: InviteAction): void {
  if (!canInviteUsers(actor)) throw AppError.forbidden();
}
