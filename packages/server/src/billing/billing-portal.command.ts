import type { CheckoutUrl, SubscriptionChange } from '@helix/shared/schemas/billing';
import type { z } from 'zod';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorizeBilling } from './billing.policy.ts';
import { portalUrl } from './portal-url.ts';
import { planPriceId } from './stripe-catalog.command.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { readBillingAccount } from './billing-account.query.ts';
import { planAndSeats } from './tenant-plan.ts';
import { ensureCustomer, serialiseTenantBilling, type BillingDeps } from './tenant-billing.ts';

export const NO_SUBSCRIPTION = 'You have no subscription to manage.';

async function liveSubscription(stripe: Stripe, customerId: string): Promise<Stripe.Subscription> {
  const { live } = await readBillingAccount(stripe, customerId);
  if (!live) throw AppError.conflict(NO_SUBSCRIPTION);
  return live;
}

/** POST /subscription/detail: the billing portal's home (invoices, card, plan). */
export async function billingDetail(
  deps: BillingDeps,
  actor: Actor,
  input: { returnUrl: string },
): Promise<CheckoutUrl> {
  // The portal can change the card (which pays open invoices), the plan and cancel: a money call.
  authorizeBilling(actor, 'money');
  const returnUrl = portalUrl(deps.config.PUBLIC_URL, input.returnUrl, 'returnUrl');
  return serialiseTenantBilling(actor.tenant.id, async () => {
    const customer = await ensureCustomer(deps, actor.tenant.id);
    const session = await stripeOf(deps).billingPortal.sessions.create({ customer, return_url: returnUrl });
    return { url: session.url };
  });
}

/**
 * POST /subscription/cancel_plan: the billing portal's cancel flow for the live subscription (at the
 * period's end), back to `returnUrl` (/success/unsubscribe). Owner only.
 */
export async function cancelPlan(
  deps: BillingDeps,
  actor: Actor,
  input: { returnUrl: string },
): Promise<CheckoutUrl> {
  authorizeBilling(actor, 'money');
  const returnUrl = portalUrl(deps.config.PUBLIC_URL, input.returnUrl, 'returnUrl');
  return serialiseTenantBilling(actor.tenant.id, async () => {
    const stripe = stripeOf(deps);
    const customer = await ensureCustomer(deps, actor.tenant.id);
    const sub = await liveSubscription(stripe, customer);
    const session = await stripe.billingPortal.sessions.create({
      customer,
      return_url: returnUrl,
      flow_data: {
        type: 'subscription_cancel',
        subscription_cancel: { subscription: sub.id },
        after_completion: { type: 'redirect', redirect: { return_url: returnUrl } },
      },
    });
    return { url: session.url };
  });
}

/**
 * POST /subscription/change: the billing portal's subscription_update_confirm flow for the new plan
 * and seats (the user confirmed in the portal first). The trial ends with the change (the sync sees
 * a trialing subscription on another price and ends its trial).
 */
export async function changePlan(
  deps: BillingDeps,
  actor: Actor,
  input: z.output<typeof SubscriptionChange>,
): Promise<CheckoutUrl> {
  authorizeBilling(actor, 'money');
  const returnUrl = portalUrl(deps.config.PUBLIC_URL, input.returnUrl, 'returnUrl');
  return serialiseTenantBilling(actor.tenant.id, async () => {
    const stripe = stripeOf(deps);
    const { plan, seats } = await planAndSeats(deps.db, input.id, input.quantity, 'id');
    const customer = await ensureCustomer(deps, actor.tenant.id);
    const sub = await liveSubscription(stripe, customer);
    const item = sub.items.data[0];
    if (!item) throw AppError.conflict(NO_SUBSCRIPTION);
    const price = await planPriceId(deps, plan);
    const session = await stripe.billingPortal.sessions.create({
      customer,
      return_url: returnUrl,
      flow_data: {
        type: 'subscription_update_confirm',
        subscription_update_confirm: {
          subscription: sub.id,
          items: [{ id: item.id, price, quantity: seats }],
        },
        after_completion: { type: 'redirect', redirect: { return_url: returnUrl } },
      },
    });
    return { url: session.url };
  });
}
