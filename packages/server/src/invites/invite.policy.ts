import type { Actor } from '../sessions/session.service.ts';
import { AppError } from '../errors.ts';

export type InviteAction = 'create' | 'resend' | 'bulk' | 'viewBatch';

/**
 * The invite policy: inviting (single, bulk, resend) and following a bulk invite need User.invite and
 * happen in a customer tenant. A platform admin does not invite into a tenant (they add users with
 * /users/add-user). The target, when there is one, was read through the actor's own tenant already.
 */
export function authorizeInvite(actor: Actor, _action: InviteAction): void {
  if (!actor.permissions.includes('User.invite') || actor.user.isAdmin) throw AppError.forbidden();
}
