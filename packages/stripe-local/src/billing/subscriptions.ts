import type { Context } from '../core/context.ts';
import { invalidRequest, StripeError } from '../core/errors.ts';
import { emit } from '../core/events.ts';
import { newId, randomToken } from '../core/ids.ts';
import type { SubscriptionRecord } from '../core/records.ts';
import { couponDiscount } from './amounts.ts';
import { attemptInvoice, createInvoice, finalizeInvoice, voidInvoice } from './invoices.ts';
import { throwIfFailed } from './payment-intents.ts';
import { addInterval, HOUR } from './time.ts';
import {
  endSubscription,
  lineFor,
  maybeTrialWillEnd,
  recurringPrice,
  type PaymentBehavior,
} from './subscription-helpers.ts';

export type { PaymentBehavior };

export interface ItemInput {
  price: string;
  quantity: number;
  metadata?: Record<string, string>;
}

export interface CreateSubscriptionInput {
  customer: string;
  items: ItemInput[];
  trialEnd: number | null;
  defaultPaymentMethod: string | null;
  paymentBehavior: PaymentBehavior;
  coupons: string[];
  metadata: Record<string, string>;
  description: string | null;
  saveDefaultPaymentMethod: 'on_subscription' | 'off';
  cancelAtPeriodEnd: boolean;
  trialEndBehavior?: SubscriptionRecord['trialEndBehavior'];
}

export function createSubscription(ctx: Context, input: CreateSubscriptionInput): SubscriptionRecord {
  const customer = ctx.store.customers.get(input.customer, 'customer');
  if (!input.items.length)
    throw invalidRequest('Missing required param: items.', { code: 'parameter_missing', param: 'items' });
  const prices = input.items.map((item, i) => recurringPrice(ctx, item.price, `items[${i}][price]`));
  const first = prices[0]!;
  for (const [i, price] of prices.entries()) {
    if (
      price.currency !== first.currency ||
      price.recurring!.interval !== first.recurring!.interval ||
      price.recurring!.intervalCount !== first.recurring!.intervalCount
    )
      throw invalidRequest(
        'The price specified has a different currency or billing interval than the other prices on this subscription.',
        { param: `items[${i}][price]` },
      );
  }
  for (const [i, id] of input.coupons.entries()) ctx.store.coupons.get(id, `discounts[${i}][coupon]`);
  if (input.defaultPaymentMethod) {
    const pm = ctx.store.paymentMethods.get(input.defaultPaymentMethod, 'default_payment_method');
    if (pm.customer !== customer.id)
      throw invalidRequest(
        `The customer does not have a payment method with the ID ${pm.id}. The payment method must be attached to the customer.`,
        { param: 'default_payment_method' },
      );
  }
  const now = ctx.nowFor(customer.testClock);
  if (input.trialEnd !== null && input.trialEnd <= now)
    throw invalidRequest('Invalid timestamp: must be an integer Unix timestamp in the future.', {
      param: 'trial_end',
    });
  const trialing = input.trialEnd !== null;
  const { interval, intervalCount } = first.recurring!;
  const periodEnd = trialing ? input.trialEnd! : addInterval(now, interval, intervalCount);
  const id = newId('sub');
  const sub: SubscriptionRecord = {
    id,
    created: now,
    customer: customer.id,
    status: trialing ? 'trialing' : 'incomplete',
    items: input.items.map((item) => ({
      id: newId('si'),
      created: now,
      price: item.price,
      quantity: item.quantity,
      metadata: item.metadata ?? {},
    })),
    currency: first.currency,
    startDate: now,
    billingCycleAnchor: periodEnd === now ? now : trialing ? input.trialEnd! : now,
    periodStart: now,
    periodEnd,
    trialStart: trialing ? now : null,
    trialEnd: trialing ? input.trialEnd : null,
    trialWillEndSent: false,
    cancelAtPeriodEnd: input.cancelAtPeriodEnd,
    cancelAt: input.cancelAtPeriodEnd ? periodEnd : null,
    canceledAt: input.cancelAtPeriodEnd ? now : null,
    endedAt: null,
    cancellationDetails: {
      comment: null,
      feedback: null,
      reason: input.cancelAtPeriodEnd ? 'cancellation_requested' : null,
    },
    defaultPaymentMethod: input.defaultPaymentMethod,
    latestInvoice: null,
    metadata: input.metadata,
    description: input.description,
    coupons: input.coupons,
    pendingLines: [],
    pendingSetupIntent: null,
    saveDefaultPaymentMethod: input.saveDefaultPaymentMethod,
    trialEndBehavior: input.trialEndBehavior ?? 'create_invoice',
    incompleteExpiresAt: null,
    testClock: customer.testClock,
  };
  const lines = sub.items.map((item) => lineFor(ctx, item, now, periodEnd, trialing));
  // What the first invoice asks for, after discounts (a 100% coupon needs no card).
  const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
  let discount = 0;
  for (const id of input.coupons) discount += couponDiscount(ctx.store.coupons.get(id), subtotal - discount);
  const needsPayment = subtotal - discount > 0;
  const hasPaymentMethod = !!(sub.defaultPaymentMethod ?? customer.defaultPaymentMethod);
  if (needsPayment && !hasPaymentMethod && input.paymentBehavior !== 'default_incomplete')
    throw invalidRequest(
      'This customer has no attached payment source or default payment method. Please consider adding a default payment method. For more information, visit https://stripe.com/docs/billing/subscriptions/payment-methods-setting#payment-method-priority.',
      { code: 'resource_missing' },
    );

  ctx.store.subscriptions.add(sub);
  for (const coupon of input.coupons) ctx.store.coupons.get(coupon).timesRedeemed += 1;
  const inv = createInvoice(ctx, sub, 'subscription_create', lines, { start: now, end: periodEnd });
  finalizeInvoice(ctx, inv);

  if (inv.status === 'open') {
    if (input.paymentBehavior === 'default_incomplete') {
      sub.incompleteExpiresAt = now + 23 * HOUR;
    } else {
      const outcome = attemptInvoice(ctx, inv, { offSession: false });
      if (outcome !== 'succeeded') {
        if (input.paymentBehavior === 'error_if_incomplete') {
          const pi = ctx.store.paymentIntents.get(inv.paymentIntent!);
          let failure: unknown = new StripeError(402, {
            type: 'card_error',
            code: 'subscription_payment_intent_requires_action',
            message:
              'Payment for this subscription requires additional user action before it can be completed successfully. Payment can be completed using the PaymentIntent associated with `subscription.latest_invoice`.',
          });
          try {
            throwIfFailed(ctx, pi);
          } catch (error) {
            failure = error;
          }
          // Stripe creates nothing in this mode: undo the subscription and its invoice.
          voidInvoice(ctx, inv);
          ctx.store.subscriptions.delete(sub.id);
          throw failure;
        }
        sub.incompleteExpiresAt = now + 23 * HOUR;
      } else {
        sub.status = 'active';
      }
    }
  } else if (!trialing) {
    sub.status = 'active';
  }
  if (trialing && input.paymentBehavior === 'default_incomplete' && !hasPaymentMethod) {
    sub.pendingSetupIntent = pendingSetupIntent(ctx, sub);
  }
  emit(ctx, 'customer.subscription.created', sub.id);
  if (trialing) maybeTrialWillEnd(ctx, sub);
  return sub;
}

function pendingSetupIntent(ctx: Context, sub: SubscriptionRecord): string {
  const id = newId('seti');
  ctx.store.setupIntents.add({
    id,
    created: ctx.nowFor(sub.testClock),
    clientSecret: `${id}_secret_${randomToken(25)}`,
    customer: sub.customer,
    paymentMethod: null,
    paymentMethodTypes: ['card'],
    usage: 'off_session',
    metadata: {},
    description: null,
    status: 'requires_payment_method',
    nextAction: null,
    lastError: null,
    cancellationReason: null,
  });
  emit(ctx, 'setup_intent.created', id);
  return id;
}

export function cancelSubscription(
  ctx: Context,
  sub: SubscriptionRecord,
  details: { comment?: string | null; feedback?: string | null } = {},
  options: { invoiceNow?: boolean; prorate?: boolean } = {},
): void {
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired')
    throw invalidRequest(
      `A canceled subscription can only update its cancellation_details and metadata.`,
      {},
    );
  const now = ctx.nowFor(sub.testClock);
  sub.cancellationDetails = {
    comment: details.comment ?? sub.cancellationDetails.comment,
    feedback: details.feedback ?? sub.cancellationDetails.feedback,
    reason: 'cancellation_requested',
  };
  sub.canceledAt = now;
  // prorate: a credit for the unused part of a paid period; invoice_now: a final invoice now with it and
  // the pending prorations, else the credit waits for the customer's next invoice and the prorations go.
  const credit = options.prorate ? unusedTimeCredit(ctx, sub, now) : [];
  const pending = options.invoiceNow ? sub.pendingLines : [];
  sub.pendingLines = [];
  endSubscription(ctx, sub, null);
  if (options.invoiceNow && (pending.length || credit.length)) {
    const inv = createInvoice(ctx, sub, 'subscription_update', [...pending, ...credit], {
      start: now,
      end: now,
    });
    finalizeInvoice(ctx, inv);
    if (inv.status === 'open') attemptInvoice(ctx, inv, { offSession: true });
  } else if (credit.length) {
    const customer = ctx.store.customers.get(sub.customer);
    customer.pendingLines = [...(customer.pendingLines ?? []), ...credit];
  }
}

/** Credit lines for the rest of the current period, when that period was paid (not in a trial). */
function unusedTimeCredit(ctx: Context, sub: SubscriptionRecord, now: number) {
  if (sub.status === 'trialing' || sub.status === 'incomplete') return [];
  const span = sub.periodEnd - sub.periodStart;
  if (span <= 0 || now >= sub.periodEnd) return [];
  const paid = [...ctx.store.invoices.values()].some(
    (i) => i.subscription === sub.id && i.status === 'paid' && i.total > 0 && i.periodEnd >= sub.periodEnd,
  );
  if (!paid) return [];
  return sub.items.map((item) => {
    const line = lineFor(ctx, item, now, sub.periodEnd);
    return {
      ...line,
      amount: -Math.round((line.amount * (sub.periodEnd - now)) / span),
      description: `Unused time on ${line.description}`,
      proration: true,
    };
  });
}
