import { MSG } from '@helix/shared';
import { BILLING_LIMITS, type PlanChangeView } from '@helix/shared/schemas/billing';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { AppError } from '../errors.ts';
import type { Plan } from '../db.ts';
import type { Actor } from '../sessions/session.service.ts';
import {
  changeAwaitingPayment,
  latestInvoiceOf,
  planOfSubscription,
  readBillingAccount,
} from './billing-account.query.ts';
import { authorizeBilling } from './billing.policy.ts';
import { presentPaymentAction, presentSubscription } from './billing.presenter.ts';
import { closeOpenInvoice } from './end-subscription.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { invoicePaymentIntent } from './invoice-payment.ts';
import { planPriceId } from './stripe-catalog.command.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { syncUnserialised } from './sync-subscription.command.ts';
import { planAndSeats } from './tenant-plan.ts';
import { ensureCustomer, serialiseTenantBilling, storeBilling, type BillingDeps } from './tenant-billing.ts';

/** The statuses in which a plan or its seats can be changed in Helix. */
const CHANGEABLE: ReadonlySet<string> = new Set(['trialing', 'active']);

/** Users of the tenant (the owner included): the fewest seats a plan may have. */
export const tenantUsers = (deps: BillingDeps, tenantId: number) =>
  deps.db.user.count({ where: { tenantId, deletedAt: null } });

const isDynamic = (plan: Plan) => plan.dynamicQuantity;

/** The seats rule of a change: the plan's userLimit and the tenant's users at least, the cap at most. */
export async function checkSeats(deps: BillingDeps, tenantId: number, plan: Plan, seats: number) {
  if (seats > BILLING_LIMITS.maxQuantity) {
    throw AppError.field('quantity', MSG.seatsAboveMax(BILLING_LIMITS.maxQuantity));
  }
  if (seats < plan.userLimit) throw AppError.field('quantity', MSG.userCountMin(plan.userLimit));
  const users = await tenantUsers(deps, tenantId);
  if (seats < users) throw AppError.field('quantity', MSG.seatsBelowUsers(users));
}

/** The live subscription that may change, or 409 NO_SUBSCRIPTION. */
async function changeableSubscription(deps: BillingDeps, customerId: string): Promise<Stripe.Subscription> {
  const { live } = await readBillingAccount(stripeOf(deps), customerId);
  if (!live || !CHANGEABLE.has(live.status) || live.cancel_at_period_end || live.cancel_at) {
    throw new AppError(ERROR_CODES.noSubscription, { status: 409, message: MSG.noSubscriptionToChange });
  }
  return live;
}

/**
 * A change made before and still waiting for its payment is dropped before a new one: its invoice is
 * voided (Stripe then discards the pending update), so two changes can never both be collected.
 */
async function discardPendingChange(deps: BillingDeps, sub: Stripe.Subscription): Promise<void> {
  if (!changeAwaitingPayment(sub)) return;
  const invoice = latestInvoiceOf(sub);
  if (
    invoice?.id &&
    invoice.status === 'open' &&
    !(await closeOpenInvoice(stripeOf(deps), invoice.id, deps.logger))
  ) {
    throw new AppError(ERROR_CODES.planChangePending, { status: 409, message: MSG.planChangePending });
  }
}

/**
 * Applies a new order (price, seats) to the live subscription as Stripe's subscription update with
 * payment_behavior=pending_if_incomplete and proration_behavior=always_invoice: the difference is
 * invoiced now and the change applies only once that invoice is paid. A trial ends with the change
 * (accounts 4: "The trial expires if the subscription is updated"). Answers what the card form
 * needs: applied, a 3-D Secure challenge, or the decline (shown in the form, never mailed).
 */
async function applyOrder(
  deps: BillingDeps,
  tenantId: number,
  sub: Stripe.Subscription,
  plan: Plan,
  seats: number,
): Promise<PlanChangeView> {
  const stripe = stripeOf(deps);
  const item = sub.items.data[0];
  if (!item)
    throw new AppError(ERROR_CODES.noSubscription, { status: 409, message: MSG.noSubscriptionToChange });
  const priceId = await planPriceId(deps, plan);
  if (item.price.id === priceId && item.quantity === seats) {
    return {
      outcome: 'applied',
      subscription: presentSubscription(sub, plan.id, null),
      paymentAction: null,
      message: null,
    };
  }
  await discardPendingChange(deps, sub);
  const updated = await stripe.subscriptions.update(
    sub.id,
    {
      items: [{ id: item.id, price: priceId, quantity: seats }],
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
      ...(sub.status === 'trialing' ? { trial_end: 'now' as const } : {}),
      expand: ['latest_invoice'],
    },
    {
      idempotencyKey: idempotencyKey(tenantId, 'change', {
        sub: sub.id,
        priceId,
        seats,
        // A new key once the subscription has moved on (a later change back to this order).
        from: [item.price.id, item.quantity, latestInvoiceOf(sub)?.id ?? null],
      }),
    },
  );
  const invoiceId = latestInvoiceOf(updated)?.id ?? null;
  const fresh = invoiceId && invoiceId !== latestInvoiceOf(sub)?.id ? invoiceId : null;
  const { invoice, paymentIntent } = fresh
    ? await invoicePaymentIntent(stripe, fresh)
    : { invoice: null, paymentIntent: null };
  const paid =
    !invoice || invoice.status === 'paid' || invoice.amount_due <= 0 || paymentIntent?.status === 'succeeded';
  if (!paid && invoice?.id) {
    // The form shows this invoice's outcome: its decline is not a "payment failed" of the plan.
    await storeBilling(deps.db, tenantId, (tx) =>
      tx.tenantSubscription.update({ where: { tenantId }, data: { changeInvoiceId: invoice.id } }),
    );
  }
  await syncUnserialised(deps, tenantId);
  const subscription = presentSubscription(updated, plan.id, null);
  if (paid) return { outcome: 'applied', subscription, paymentAction: null, message: null };
  const action = presentPaymentAction(invoice!, paymentIntent);
  if (paymentIntent?.status === 'requires_action') {
    return { outcome: 'requires_action', subscription, paymentAction: action, message: null };
  }
  return {
    outcome: 'requires_payment_method',
    subscription,
    paymentAction: action,
    message: paymentIntent?.last_payment_error?.message ?? MSG.cardDeclined,
  };
}

/** POST /subscription/change-plan: the live subscription to another plan (and seats). Owner only. */
export async function changePlanInPlace(
  deps: BillingDeps,
  actor: Actor,
  input: { planId: number; quantity?: number },
): Promise<PlanChangeView> {
  authorizeBilling(actor, 'money');
  const tenantId = actor.tenant.id;
  return serialiseTenantBilling(tenantId, async () => {
    const customerId = await ensureCustomer(deps, tenantId);
    const sub = await changeableSubscription(deps, customerId);
    const { plan } = await planAndSeats(deps.db, input.planId, input.quantity);
    const current = sub.items.data[0]?.quantity ?? plan.userLimit;
    // Seats carry over to a plan that sells them; a fixed plan has its own.
    const seats = isDynamic(plan) ? Math.max(plan.userLimit, input.quantity ?? current) : plan.userLimit;
    await checkSeats(deps, tenantId, plan, seats);
    return applyOrder(deps, tenantId, sub, plan, seats);
  });
}

/** POST /subscription/seats: the live subscription's seats, on its plan. Owner only. */
export async function changeSeats(
  deps: BillingDeps,
  actor: Actor,
  input: { quantity: number },
): Promise<PlanChangeView> {
  authorizeBilling(actor, 'money');
  const tenantId = actor.tenant.id;
  return serialiseTenantBilling(tenantId, async () => {
    const customerId = await ensureCustomer(deps, tenantId);
    const sub = await changeableSubscription(deps, customerId);
    const plan = await planOfSubscription(deps.db, sub);
    if (!plan)
      throw new AppError(ERROR_CODES.noSubscription, { status: 409, message: MSG.noSubscriptionToChange });
    if (!isDynamic(plan))
      throw new AppError(ERROR_CODES.seatsFixed, { status: 409, message: MSG.seatsFixed });
    await checkSeats(deps, tenantId, plan, input.quantity);
    return applyOrder(deps, tenantId, sub, plan, input.quantity);
  });
}
