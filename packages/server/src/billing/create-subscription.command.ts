import { ERROR_CODES } from '@helix/shared/error-codes';
import type {
  CardCheckoutView,
  PaymentIntentCreate,
  PaymentIntentView,
  SubscriptionView,
  TrialCreate,
} from '@helix/shared/schemas/billing';
import type { z } from 'zod';
import { AppError } from '../errors.ts';
import type { Plan } from '../db.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorizeBilling } from './billing.policy.ts';
import { presentInvoice, presentPaymentIntent, presentSubscription } from './billing.presenter.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { invoicePaymentIntent } from './invoice-payment.ts';
import { planPriceId } from './stripe-catalog.command.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { readBillingAccount, trialUsed } from './billing-account.query.ts';
import { endSubscriptionNow } from './end-subscription.ts';
import { syncUnserialised } from './sync-subscription.command.ts';
import { planAndSeats } from './tenant-plan.ts';
import { assertCardMayTrial, claimTrialCard } from './trial-card.ts';
import { ensureCustomer, serialiseTenantBilling, type BillingDeps } from './tenant-billing.ts';

export const PAYMENT_NOT_STARTED = 'The payment could not be started. Please try again.';
export const NOT_YOUR_PAYMENT_METHOD = 'This card cannot be used for this account.';

const idOf = (value: string | { id: string } | null | undefined) =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

/** The payment method, attached to the tenant's customer (another customer's is a 404). */
export async function attachPaymentMethod(stripe: Stripe, customerId: string, paymentMethodId: string) {
  let pm: Stripe.PaymentMethod;
  try {
    pm = await stripe.paymentMethods.retrieve(paymentMethodId);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) {
      throw new AppError(ERROR_CODES.notFound, { status: 404, message: NOT_YOUR_PAYMENT_METHOD });
    }
    throw error;
  }
  const owner = idOf(pm.customer);
  if (owner && owner !== customerId) {
    throw new AppError(ERROR_CODES.notFound, { status: 404, message: NOT_YOUR_PAYMENT_METHOD });
  }
  if (!owner) return stripe.paymentMethods.attach(pm.id, { customer: customerId });
  return pm;
}

const sameOrder = (sub: Stripe.Subscription, priceId: string, seats: number) =>
  sub.items.data.length === 1 &&
  sub.items.data[0]?.price.id === priceId &&
  sub.items.data[0]?.quantity === seats;

interface Placed {
  sub: Stripe.Subscription;
  plan: Plan;
  invoice: Stripe.Invoice | null;
  paymentIntent: Stripe.PaymentIntent | null;
}

/**
 * Places a subscription on `plan` for the tenant (one at a time per tenant; no transaction is open
 * while Stripe is called):
 * - the same order already there (a double click, a retry, a 3-D Secure retry of a pending payment):
 *   answered again, nothing new is made;
 * - otherwise, while the tenant's trial has not passed (and the card had no trial elsewhere), a trial
 *   (must be `trialing`); after it, an incomplete subscription (payment_behavior default_incomplete,
 *   must be `incomplete` unless nothing is due) whose first invoice's payment intent the browser
 *   confirms. The tenant's live plan is NOT touched here: a paid (or trialing) replacement ends it
 *   when the sync sees it paid (invoice.paid), so an abandoned card form changes nothing.
 */
async function placeSubscription(
  deps: BillingDeps,
  actor: Actor,
  input: { planId: number; quantity?: number; paymentMethodId?: string; updateCustomer?: boolean },
): Promise<Placed> {
  const stripe = stripeOf(deps);
  const tenantId = actor.tenant.id;
  const { plan, seats } = await planAndSeats(deps.db, input.planId, input.quantity);
  const customerId = await ensureCustomer(deps, tenantId);
  const priceId = await planPriceId(deps, plan);
  const account = await readBillingAccount(stripe, customerId);
  const stored = await deps.db.tenantSubscription.findUnique({ where: { tenantId } });
  const trial = !trialUsed(stored, account);
  // Stripe's test ids (pm_card_visa) name a new card on each use: from here on, the attached card.
  const pm = input.paymentMethodId
    ? await attachPaymentMethod(stripe, customerId, input.paymentMethodId)
    : undefined;
  const fingerprint = trial && pm ? await assertCardMayTrial(deps, tenantId, pm) : null;
  // The customer's default card changes only when no plan is live: a card still to be proven must
  // not become the one the live plan renews with.
  if (pm && input.updateCustomer !== false && !account.live) {
    await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: pm.id } });
  }
  const same = account.subscriptions.find(
    (s) => sameOrder(s, priceId, seats) && ['trialing', 'active', 'incomplete'].includes(s.status),
  );
  let sub: Stripe.Subscription;
  if (same) {
    sub = same;
  } else {
    const key = idempotencyKey(tenantId, trial ? 'trial' : 'subscribe', {
      customer: customerId,
      planId: plan.id,
      priceId,
      seats,
      pm: input.paymentMethodId ?? null,
      generation: account.subscriptions.length,
    });
    // Named, so the sync knows which plan this one ends once it is paid (even within one second).
    const replaces: Record<string, string> = account.live ? { replaces: account.live.id } : {};
    const common = {
      customer: customerId,
      items: [{ price: priceId, quantity: seats }],
      ...(pm ? { default_payment_method: pm.id } : {}),
      payment_settings: { save_default_payment_method: 'on_subscription' as const },
      expand: ['latest_invoice'],
    };
    sub = trial
      ? await stripe.subscriptions.create(
          {
            ...common,
            trial_period_days: plan.trialDays,
            trial_settings: { end_behavior: { missing_payment_method: 'cancel' } },
            metadata: {
              tenantId: String(tenantId),
              planId: String(plan.id),
              trialPriceId: priceId,
              ...replaces,
            },
          },
          { idempotencyKey: key },
        )
      : await stripe.subscriptions.create(
          {
            ...common,
            payment_behavior: 'default_incomplete',
            metadata: { tenantId: String(tenantId), planId: String(plan.id), ...replaces },
          },
          { idempotencyKey: key },
        );
    const expected = trial ? ['trialing'] : ['incomplete', 'active'];
    if (!expected.includes(sub.status)) {
      deps.logger?.error({ tenantId, subscription: sub.id, status: sub.status }, 'wrong subscription status');
      throw new AppError(ERROR_CODES.paymentNotStarted, { status: 402, message: PAYMENT_NOT_STARTED });
    }
    if (fingerprint) await claimTrialCard(deps, tenantId, fingerprint);
  }
  const invoiceId = idOf(sub.latest_invoice);
  const { invoice, paymentIntent } = invoiceId
    ? await invoicePaymentIntent(stripe, invoiceId)
    : { invoice: null, paymentIntent: null };
  await syncUnserialised(deps, tenantId);
  return { sub, plan, invoice, paymentIntent };
}

const present = ({ sub, plan, invoice, paymentIntent }: Placed): SubscriptionView =>
  presentSubscription(sub, plan.id, invoice ? presentInvoice(invoice, paymentIntent) : null);

/**
 * POST /subscription/createtrials (and /api/subscription/createtrials/guest): the trial while the
 * tenant's trial has not passed, else the card checkout's incomplete subscription. A card that had a
 * trial on another tenant: 409 TRIAL_ALREADY_USED (the paid flow follows). The browser's `amount` and
 * `paymentBehavior` are not used: the plan and the seats decide the amount, and a card subscription
 * is always default_incomplete (so 3-D Secure can be asked for).
 */
export async function createTrialOrSubscription(
  deps: BillingDeps,
  actor: Actor,
  input: z.output<typeof TrialCreate>,
  opts: { guest?: boolean } = {},
): Promise<SubscriptionView> {
  authorizeBilling(actor, opts.guest ? 'guest' : 'money');
  return serialiseTenantBilling(actor.tenant.id, async () =>
    present(
      await placeSubscription(deps, actor, {
        planId: input.planId,
        quantity: input.quantity,
        paymentMethodId: input.paymentId,
        updateCustomer: input.updateCustomer,
      }),
    ),
  );
}

/**
 * POST /subscription/payment-intent: card checkout steps 2 to 4 in one call (step 1, "cancel any
 * existing subscription", happens only once the new one is paid). The trial must have passed (before
 * it, the trial flow applies: 409).
 */
export async function createCardCheckout(
  deps: BillingDeps,
  actor: Actor,
  input: z.output<typeof PaymentIntentCreate>,
): Promise<CardCheckoutView> {
  authorizeBilling(actor, 'money');
  return serialiseTenantBilling(actor.tenant.id, async () => {
    const stored = await deps.db.tenantSubscription.findUnique({ where: { tenantId: actor.tenant.id } });
    if (!stored?.isTrialPassed) {
      throw AppError.conflict('Your free trial has not been used yet: start the trial instead.');
    }
    const placed = await placeSubscription(deps, actor, { planId: input.planId, quantity: input.quantity });
    if (!placed.invoice?.id || !placed.paymentIntent || placed.invoice.status === 'paid') {
      throw new AppError(ERROR_CODES.nothingToPay, {
        status: 409,
        message: 'There is nothing to pay for this plan now.',
      });
    }
    return {
      subscriptionId: placed.sub.id,
      invoiceId: placed.invoice.id,
      paymentIntent: presentPaymentIntent(placed.paymentIntent),
    };
  });
}

/** The tenant's customer id, or 404 when it has none (nothing of Stripe's can be its own). */
export async function customerOf(deps: BillingDeps, actor: Actor): Promise<string> {
  const tenant = await deps.db.tenant.findUnique({ where: { id: actor.tenant.id } });
  if (!tenant?.stripeCustomerId) throw AppError.notFound();
  return tenant.stripeCustomerId;
}

/** Retrieves a Stripe object and answers 404 unless it belongs to the customer. */
export async function ownedBy<T extends { customer?: string | { id: string } | null }>(
  customerId: string,
  load: () => Promise<T>,
): Promise<T> {
  let object: T;
  try {
    object = await load();
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) throw AppError.notFound();
    throw error;
  }
  if (idOf(object.customer) !== customerId) throw AppError.notFound();
  return object;
}

/** POST /subscription/payment-intent/update: the card for the pending payment intent. */
export async function updatePaymentIntent(
  deps: BillingDeps,
  actor: Actor,
  input: { payment_intent: string; payment_method_id: string },
): Promise<PaymentIntentView> {
  authorizeBilling(actor, 'money');
  const stripe = stripeOf(deps);
  const customerId = await customerOf(deps, actor);
  const pi = await ownedBy(customerId, () => stripe.paymentIntents.retrieve(input.payment_intent));
  const pm = await attachPaymentMethod(stripe, customerId, input.payment_method_id);
  return presentPaymentIntent(await stripe.paymentIntents.update(pi.id, { payment_method: pm.id }));
}

/** POST /subscription/latest-invoice/payment-invoice: the payment intent of one of the tenant's invoices. */
export async function latestInvoicePayment(
  deps: BillingDeps,
  actor: Actor,
  input: { invoiceId: string },
): Promise<PaymentIntentView> {
  authorizeBilling(actor, 'money');
  const stripe = stripeOf(deps);
  const customerId = await customerOf(deps, actor);
  await ownedBy(customerId, () => stripe.invoices.retrieve(input.invoiceId));
  const { paymentIntent } = await invoicePaymentIntent(stripe, input.invoiceId);
  if (!paymentIntent)
    throw new AppError(ERROR_CODES.nothingToPay, {
      status: 409,
      message: 'This invoice has nothing to pay.',
    });
  return presentPaymentIntent(paymentIntent);
}

/**
 * POST /subscription/cancel_subscription: ends one of the tenant's subscriptions now (owner only) and
 * closes its open invoices, so nothing of it can be collected later.
 */
export async function cancelSubscriptionNow(
  deps: BillingDeps,
  actor: Actor,
  input: { subscriptionId: string },
): Promise<{ status: SubscriptionView['status'] }> {
  authorizeBilling(actor, 'money');
  const stripe = stripeOf(deps);
  const customerId = await customerOf(deps, actor);
  return serialiseTenantBilling(actor.tenant.id, async () => {
    const sub = await ownedBy(customerId, () => stripe.subscriptions.retrieve(input.subscriptionId));
    const ended = await endSubscriptionNow(stripe, sub, deps.logger);
    await syncUnserialised(deps, actor.tenant.id);
    return { status: ended.status as SubscriptionView['status'] };
  });
}
