import { MSG } from '@helix/shared';
import {
  VIEWS_PER_BLOCK,
  type BuyViews,
  type CheckoutCreate,
  type CheckoutUrl,
} from '@helix/shared/schemas/billing';
import type { z } from 'zod';
import { viewsForSale } from '../auth/abilities.policy.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorizeBilling } from './billing.policy.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { portalUrl } from './portal-url.ts';
import { planPriceId, VIEWS_PRODUCT_ID } from './stripe-catalog.command.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { planAndSeats } from './tenant-plan.ts';
import { readBillingAccount, trialUsed } from './billing-account.query.ts';
import { ensureCustomer, serialiseTenantBilling, type BillingDeps } from './tenant-billing.ts';

/** A Checkout session that can still be paid: the one made for the same key may have completed. */
async function openSession(
  stripe: Stripe,
  params: Stripe.Checkout.SessionCreateParams,
  key: string,
): Promise<Stripe.Checkout.Session> {
  const session = await stripe.checkout.sessions.create(params, { idempotencyKey: key });
  if (session.status === 'open' && session.url) return session;
  return stripe.checkout.sessions.create(params, { idempotencyKey: `${key}-after-${session.id}` });
}

/**
 * POST /checkout/create: hosted Checkout of a subscription for a tenant without a live one (a
 * subscribed tenant changes plan through the billing portal: 409). The trial applies while it has not
 * passed. The amount comes from the plan's Stripe price and the seats, never from the browser.
 */
export async function createCheckout(
  deps: BillingDeps,
  actor: Actor,
  input: z.output<typeof CheckoutCreate>,
): Promise<CheckoutUrl> {
  authorizeBilling(actor, 'money');
  const successUrl = portalUrl(deps.config.PUBLIC_URL, input.successUrl, 'successUrl');
  const cancelUrl = portalUrl(deps.config.PUBLIC_URL, input.cancelUrl ?? '/subscription', 'cancelUrl');
  return serialiseTenantBilling(actor.tenant.id, async () => {
    const stripe = stripeOf(deps);
    const { plan, seats } = await planAndSeats(deps.db, input.planId, input.quantity);
    const customerId = await ensureCustomer(deps, actor.tenant.id);
    const account = await readBillingAccount(stripe, customerId);
    if (account.live) throw AppError.conflict(MSG.alreadySubscribed);
    const subs = account.subscriptions;
    const stored = await deps.db.tenantSubscription.findUnique({ where: { tenantId: actor.tenant.id } });
    const trial = !trialUsed(stored, account);
    const priceId = await planPriceId(deps, plan);
    const metadata = {
      tenantId: String(actor.tenant.id),
      planId: String(plan.id),
      ...(trial ? { trialPriceId: priceId } : {}),
    };
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'subscription',
      customer: customerId,
      client_reference_id: String(actor.tenant.id),
      line_items: [{ price: priceId, quantity: seats }],
      success_url: successUrl,
      cancel_url: cancelUrl,
      subscription_data: { metadata, ...(trial ? { trial_period_days: plan.trialDays } : {}) },
      metadata: { ...metadata, kind: 'subscription' },
    };
    const key = idempotencyKey(actor.tenant.id, 'checkout', { params, generation: subs.length });
    const session = await openSession(stripe, params, key);
    return { url: session.url! };
  });
}

/**
 * POST /subscription/create_views: a one-off Checkout payment of `quantity` blocks of 1,000 views at
 * the plan's additionalViewsPrice. The Add Views rule: a plan in force with a view limit and a price
 * for additional views, and no Model.unlimited_views. The views are added once, when Stripe says the
 * session is paid (webhook: checkout.session.completed / async_payment_succeeded).
 */
export async function createViewsCheckout(
  deps: BillingDeps,
  actor: Actor,
  input: z.output<typeof BuyViews>,
): Promise<CheckoutUrl> {
  authorizeBilling(actor, 'money');
  const successUrl = portalUrl(deps.config.PUBLIC_URL, input.successUrl, 'successUrl');
  const cancelUrl = portalUrl(deps.config.PUBLIC_URL, input.cancelUrl, 'cancelUrl');
  return serialiseTenantBilling(actor.tenant.id, async () => {
    const stored = await deps.db.tenantSubscription.findUnique({
      where: { tenantId: actor.tenant.id },
      include: { plan: true },
    });
    const plan = stored?.plan;
    // The rule the session's abilities.buyViews shows (auth/abilities.policy.ts), on the row as it is now.
    if (!plan || !viewsForSale(stored, actor.permissions)) {
      throw AppError.conflict(MSG.viewsNotForSale);
    }
    const stripe = stripeOf(deps);
    const customerId = await ensureCustomer(deps, actor.tenant.id);
    const purchases = await deps.db.additionalViewPurchase.count({ where: { tenantId: actor.tenant.id } });
    const metadata = {
      kind: 'views',
      tenantId: String(actor.tenant.id),
      planId: String(plan.id),
      blocks: String(input.quantity),
    };
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: 'payment',
      customer: customerId,
      client_reference_id: String(actor.tenant.id),
      line_items: [
        {
          price_data: { currency: 'usd', product: VIEWS_PRODUCT_ID, unit_amount: plan.additionalViewsPrice },
          quantity: input.quantity,
        },
      ],
      success_url: successUrl,
      cancel_url: cancelUrl,
      metadata,
      payment_intent_data: { metadata },
      // A paid invoice after the payment: Billing History lists it and invoice.paid sends the receipt.
      invoice_creation: {
        enabled: true,
        invoice_data: {
          description: MSG.viewsInvoiceDescription(input.quantity * VIEWS_PER_BLOCK),
          metadata,
        },
      },
    };
    const key = idempotencyKey(actor.tenant.id, 'views', { params, generation: purchases });
    const session = await openSession(stripe, params, key);
    return { url: session.url! };
  });
}
