import type { Actor } from '../sessions/session.service.ts';
import { AppError } from '../errors.ts';

/**
 * Who may do what with a tenant's billing (checked once, in the commands):
 * - every billing call: a customer tenant's user holding Subscription.listing.view (the routes' coarse
 *   gate checks the permission; platform admins have no billing: 403);
 * - 'cancel' (end the subscription: cancel_plan, cancel_subscription) and 'guest' (the guest trial
 *   right after sign-up): the tenant's owner only.
 * The tenant is always the caller's own (taken from the session), so another tenant's billing can
 * never be reached: another tenant's Stripe object answers the same 404 as a missing one.
 */
export type BillingAction = 'view' | 'pay' | 'cancel' | 'guest';

export function authorizeBilling(actor: Actor, action: BillingAction): void {
  if (actor.user.isAdmin || actor.tenant.isPlatform) throw AppError.forbidden();
  if (!actor.permissions.includes('Subscription.listing.view')) throw AppError.forbidden();
  if ((action === 'cancel' || action === 'guest') && !actor.user.isOwner) throw AppError.forbidden();
}
