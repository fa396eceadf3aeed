import { MSG } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import type { Actor } from '../sessions/session.service.ts';
import { AppError } from '../errors.ts';

/**
 * Who may do what with a tenant's billing (checked once, in the commands; apps/api/BILLING-API.md):
 * - 'view' (the subscription summary, a change preview, the invoice list): a customer tenant's user
 *   holding Subscription.listing.view (the routes' coarse gate checks the permission too);
 * - 'money' (everything that pays, changes the plan or seats, buys views, cancels, saves or changes a
 *   card, or opens the billing portal where all of that can be done): the tenant's owner only. The
 *   Admin role alone is not enough: a school's other admins see the plan but cannot spend or end it.
 * - 'guest' (the guest trial right after sign-up): the owner, as 'money'.
 * Platform admins have no billing (403). The tenant is always the caller's own (from the session), so
 * another tenant's Stripe object answers the same 404 as a missing one.
 */
export type BillingAction = 'view' | 'money' | 'guest';

/** What the billing rules read of the caller (an Actor has it all; the session presenter too). */
export type BillingActor = Pick<Actor, 'user' | 'tenant' | 'permissions'>;

/** A school's user (the /subscription page is theirs: subscribe, or see the plan is the owner's business). */
export const isSchoolUser = (actor: BillingActor): boolean => !actor.user.isAdmin && !actor.tenant.isPlatform;

/** The subscription summary, previews and invoices ('view'). */
export const canViewBilling = (actor: BillingActor): boolean =>
  isSchoolUser(actor) && actor.permissions.includes('Subscription.listing.view');

export function authorizeBilling(actor: BillingActor, action: BillingAction): void {
  if (!canViewBilling(actor)) throw AppError.forbidden();
  if (action !== 'view' && !actor.user.isOwner) {
    throw new AppError(ERROR_CODES.billingOwnerOnly, { status: 403, message: MSG.billingOwnerOnly });
  }
}

/** Whether the actor may make the money calls (the summary's canManage). */
export function mayManageBilling(actor: BillingActor): boolean {
  try {
    authorizeBilling(actor, 'money');
    return true;
  } catch {
    return false;
  }
}
