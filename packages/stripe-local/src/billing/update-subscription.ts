import type { Context } from '../core/context.ts';
import { invalidRequest } from '../core/errors.ts';
import { changedFields, emit } from '../core/events.ts';
import { newId } from '../core/ids.ts';
import type { InvoiceLine, SubscriptionItemRecord, SubscriptionRecord } from '../core/records.ts';
import { renderSubscription } from '../core/render.ts';
import { priceAmount } from './amounts.ts';
import { attemptInvoice, createInvoice, finalizeInvoice, invoicePaymentMethod } from './invoices.ts';
import { throwIfFailed } from './payment-intents.ts';
import { addInterval } from './time.ts';
import { intervalOf, lineFor, recurringPrice, update, type PaymentBehavior } from './subscription-helpers.ts';

export interface UpdateItemInput {
  id?: string;
  price?: string;
  quantity?: number;
  deleted?: boolean;
  metadata?: Record<string, string>;
}

export interface UpdateSubscriptionInput {
  items?: UpdateItemInput[];
  cancelAtPeriodEnd?: boolean;
  /** A time to cancel at (null clears it). */
  cancelAt?: number | null;
  trialEnd?: number | 'now';
  prorationBehavior?: 'create_prorations' | 'none' | 'always_invoice';
  defaultPaymentMethod?: string | null;
  metadata?: Record<string, string>;
  description?: string | null;
  coupons?: string[];
  paymentBehavior?: PaymentBehavior;
  cancellationDetails?: { comment?: string | null; feedback?: string | null };
  trialEndBehavior?: SubscriptionRecord['trialEndBehavior'];
}

export function updateSubscription(
  ctx: Context,
  sub: SubscriptionRecord,
  input: UpdateSubscriptionInput,
): void {
  const now = ctx.nowFor(sub.testClock);
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
    const allowed = Object.entries(input).every(
      ([k, v]) => v === undefined || k === 'metadata' || k === 'cancellationDetails',
    );
    if (!allowed)
      throw invalidRequest(
        'A canceled subscription can only update its cancellation_details and metadata.',
        {},
      );
  }
  if (input.defaultPaymentMethod) {
    const pm = ctx.store.paymentMethods.get(input.defaultPaymentMethod, 'default_payment_method');
    if (pm.customer !== sub.customer)
      throw invalidRequest(
        `The customer does not have a payment method with the ID ${pm.id}. The payment method must be attached to the customer.`,
        { param: 'default_payment_method' },
      );
  }
  for (const [i, id] of (input.coupons ?? []).entries()) ctx.store.coupons.get(id, `discounts[${i}][coupon]`);
  const oldItems = sub.items.map((i) => ({ ...i }));
  const oldInterval = intervalOf(ctx, sub);
  let itemsChanged = false;
  const before = renderSubscription(ctx, sub);

  if (input.items) {
    const next = sub.items.map((i) => ({ ...i }));
    for (const [index, change] of input.items.entries()) {
      if (change.id) {
        const existing = next.find((i) => i.id === change.id);
        if (!existing)
          throw invalidRequest(`Invalid subscription_item id: ${change.id}`, {
            param: `items[${index}][id]`,
          });
        if (change.deleted) {
          next.splice(next.indexOf(existing), 1);
        } else {
          if (change.price) existing.price = recurringPrice(ctx, change.price, `items[${index}][price]`).id;
          if (change.quantity !== undefined) existing.quantity = change.quantity;
          if (change.metadata) existing.metadata = change.metadata;
        }
      } else {
        if (!change.price)
          throw invalidRequest(`Missing required param: items[${index}][price].`, {
            code: 'parameter_missing',
            param: `items[${index}][price]`,
          });
        recurringPrice(ctx, change.price, `items[${index}][price]`);
        next.push({
          id: newId('si'),
          created: now,
          price: change.price,
          quantity: change.quantity ?? 1,
          metadata: change.metadata ?? {},
        });
      }
    }
    if (!next.length)
      throw invalidRequest('A subscription must have at least one active plan.', { param: 'items' });
    itemsChanged =
      JSON.stringify(next.map((i) => [i.price, i.quantity])) !==
      JSON.stringify(oldItems.map((i) => [i.price, i.quantity]));
    sub.items = next;
  }
  if (input.metadata) sub.metadata = { ...sub.metadata, ...input.metadata };
  if (input.description !== undefined) sub.description = input.description;
  if (input.defaultPaymentMethod !== undefined) sub.defaultPaymentMethod = input.defaultPaymentMethod;
  if (input.coupons) sub.coupons = input.coupons;
  if (input.trialEndBehavior) sub.trialEndBehavior = input.trialEndBehavior;
  if (input.cancellationDetails)
    sub.cancellationDetails = { ...sub.cancellationDetails, ...input.cancellationDetails };
  if (input.cancelAtPeriodEnd !== undefined) {
    sub.cancelAtPeriodEnd = input.cancelAtPeriodEnd;
    sub.cancelAt = input.cancelAtPeriodEnd ? sub.periodEnd : null;
    sub.canceledAt = input.cancelAtPeriodEnd ? now : null;
    sub.cancellationDetails = {
      ...sub.cancellationDetails,
      reason: input.cancelAtPeriodEnd ? 'cancellation_requested' : null,
    };
  }
  if (input.cancelAt !== undefined) {
    if (input.cancelAt !== null && input.cancelAt <= now)
      throw invalidRequest('cancel_at must be in the future.', { param: 'cancel_at' });
    sub.cancelAt = input.cancelAt;
    // Stripe reports a cancel_at on the period end as cancel_at_period_end.
    sub.cancelAtPeriodEnd = input.cancelAt !== null && input.cancelAt === sub.periodEnd;
    sub.canceledAt = input.cancelAt === null ? null : now;
    sub.cancellationDetails = {
      ...sub.cancellationDetails,
      reason: input.cancelAt === null ? null : 'cancellation_requested',
    };
  }
  const newInterval = intervalOf(ctx, sub);
  const intervalChanged =
    newInterval.interval !== oldInterval.interval || newInterval.intervalCount !== oldInterval.intervalCount;
  const endTrial = input.trialEnd === 'now' && sub.status === 'trialing';
  if (typeof input.trialEnd === 'number') {
    if (input.trialEnd <= now)
      throw invalidRequest('Invalid timestamp: must be an integer Unix timestamp in the future.', {
        param: 'trial_end',
      });
    sub.trialEnd = input.trialEnd;
    if (sub.status === 'trialing') {
      sub.periodEnd = input.trialEnd;
      sub.billingCycleAnchor = input.trialEnd;
    }
  }
  const previous = changedFields(before, renderSubscription(ctx, sub));
  if (Object.keys(previous).length) emit(ctx, 'customer.subscription.updated', sub.id, { previous });

  if (endTrial) {
    sub.trialEnd = now;
    renewNow(ctx, sub, now, 'subscription_update', input.paymentBehavior);
    return;
  }
  if (!itemsChanged || sub.status === 'trialing' || sub.status === 'incomplete') return;
  const behaviour = input.prorationBehavior ?? 'create_prorations';
  if (intervalChanged) {
    // A new interval restarts the billing cycle now (even with proration_behavior none), crediting the
    // unused time of the old one unless prorations are off.
    if (behaviour !== 'none') sub.pendingLines.push(...prorations(ctx, sub, oldItems, now));
    sub.billingCycleAnchor = now;
    renewNow(ctx, sub, now, 'subscription_update', input.paymentBehavior);
    return;
  }
  if (behaviour === 'none') return;
  sub.pendingLines.push(...prorations(ctx, sub, oldItems, now));
  if (behaviour === 'always_invoice') {
    const lines = sub.pendingLines;
    sub.pendingLines = [];
    const inv = createInvoice(ctx, sub, 'subscription_update', lines, { start: now, end: sub.periodEnd });
    finalizeInvoice(ctx, inv);
    if (inv.status === 'open' && inv.total > 0) collectOnUpdate(ctx, inv.id, input.paymentBehavior);
  }
}

function renewNow(
  ctx: Context,
  sub: SubscriptionRecord,
  at: number,
  reason: 'subscription_update',
  behaviour?: PaymentBehavior,
): void {
  const { interval, intervalCount } = intervalOf(ctx, sub);
  update(ctx, sub, () => {
    sub.status = sub.status === 'trialing' ? 'active' : sub.status;
    sub.billingCycleAnchor = at;
    sub.periodStart = at;
    sub.periodEnd = addInterval(at, interval, intervalCount);
    if (sub.cancelAtPeriodEnd) sub.cancelAt = sub.periodEnd;
  });
  const lines = [
    ...sub.pendingLines,
    ...sub.items.map((item) => lineFor(ctx, item, sub.periodStart, sub.periodEnd)),
  ];
  sub.pendingLines = [];
  const inv = createInvoice(ctx, sub, reason, lines, { start: sub.periodStart, end: sub.periodEnd });
  finalizeInvoice(ctx, inv);
  if (inv.status === 'open' && inv.total > 0) collectOnUpdate(ctx, inv.id, behaviour);
}

function collectOnUpdate(ctx: Context, invoiceId: string, behaviour?: PaymentBehavior): void {
  const inv = ctx.store.invoices.get(invoiceId);
  if (behaviour === 'default_incomplete') return;
  if (!invoicePaymentMethod(ctx, inv)) return;
  const outcome = attemptInvoice(ctx, inv, { offSession: false });
  if (outcome === 'failed' && behaviour === 'error_if_incomplete')
    throwIfFailed(ctx, ctx.store.paymentIntents.get(inv.paymentIntent!));
}

/** Credit for the unused time of the old items and a charge for the new ones, to the period end. */
function prorations(
  ctx: Context,
  sub: SubscriptionRecord,
  oldItems: SubscriptionItemRecord[],
  now: number,
): InvoiceLine[] {
  const span = sub.periodEnd - sub.periodStart;
  if (span <= 0 || now >= sub.periodEnd) return [];
  const fraction = (sub.periodEnd - now) / span;
  const lines: InvoiceLine[] = [];
  for (const item of oldItems) {
    const price = ctx.store.prices.get(item.price);
    lines.push({
      id: newId('il'),
      amount: -Math.round(priceAmount(price, item.quantity) * fraction),
      description: `Unused time on ${item.quantity} × ${ctx.store.products.find(price.product)?.name ?? price.id}`,
      price: price.id,
      quantity: item.quantity,
      periodStart: now,
      periodEnd: sub.periodEnd,
      proration: true,
      subscriptionItem: item.id,
    });
  }
  for (const item of sub.items) {
    const price = ctx.store.prices.get(item.price);
    lines.push({
      id: newId('il'),
      amount: Math.round(priceAmount(price, item.quantity) * fraction),
      description: `Remaining time on ${item.quantity} × ${ctx.store.products.find(price.product)?.name ?? price.id}`,
      price: price.id,
      quantity: item.quantity,
      periodStart: now,
      periodEnd: sub.periodEnd,
      proration: true,
      subscriptionItem: item.id,
    });
  }
  return lines;
}

/** The next moment something happens to this subscription on its own, or null. */
