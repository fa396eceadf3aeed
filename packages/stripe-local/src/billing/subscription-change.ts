import type { Context } from '../core/context.ts';
import { invalidRequest } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import type { InvoiceLine, SubscriptionItemRecord, SubscriptionRecord } from '../core/records.ts';
import { priceAmount } from './amounts.ts';
import { addInterval } from './time.ts';
import { intervalOf, lineFor, recurringPrice, type PaymentBehavior } from './subscription-helpers.ts';

/**
 * What a subscription update does to a subscription record and which invoice it makes now. Pure
 * record changes (no events, no stored objects), so the same code serves a real update, a pending
 * update (worked out on a copy) and an invoice preview (`invoices/create_preview`): the amounts agree.
 */

export interface UpdateItemInput {
  id?: string;
  price?: string;
  quantity?: number;
  deleted?: boolean;
  metadata?: Record<string, string>;
}

export type ProrationBehavior = 'create_prorations' | 'none' | 'always_invoice';

export interface UpdateSubscriptionInput {
  items?: UpdateItemInput[];
  cancelAtPeriodEnd?: boolean;
  /** A time to cancel at (null clears it). */
  cancelAt?: number | null;
  trialEnd?: number | 'now';
  prorationBehavior?: ProrationBehavior;
  /** Prorate as if the update was made at this time (Stripe's proration_date). */
  prorationDate?: number;
  defaultPaymentMethod?: string | null;
  metadata?: Record<string, string>;
  description?: string | null;
  coupons?: string[];
  paymentBehavior?: PaymentBehavior;
  cancellationDetails?: { comment?: string | null; feedback?: string | null };
  trialEndBehavior?: SubscriptionRecord['trialEndBehavior'];
}

export interface Change {
  oldItems: SubscriptionItemRecord[];
  itemsChanged: boolean;
  intervalChanged: boolean;
  endTrial: boolean;
}

/** Applies the update's fields to `sub` (validated first: nothing changes when a parameter is wrong). */
export function applyChanges(
  ctx: Context,
  sub: SubscriptionRecord,
  input: UpdateSubscriptionInput,
  now: number,
): Change {
  const oldItems = sub.items.map((i) => ({ ...i }));
  const oldInterval = intervalOf(ctx, sub);
  let itemsChanged = false;
  let next = sub.items;
  if (input.items) {
    next = sub.items.map((i) => ({ ...i }));
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
  }
  if (input.cancelAt !== undefined && input.cancelAt !== null && input.cancelAt <= now)
    throw invalidRequest('cancel_at must be in the future.', { param: 'cancel_at' });
  if (typeof input.trialEnd === 'number' && input.trialEnd <= now)
    throw invalidRequest('Invalid timestamp: must be an integer Unix timestamp in the future.', {
      param: 'trial_end',
    });
  if (
    input.prorationDate !== undefined &&
    (input.prorationDate < sub.periodStart || input.prorationDate > sub.periodEnd)
  )
    throw invalidRequest("proration_date must be within the subscription's current billing period.", {
      param: 'proration_date',
    });

  sub.items = next;
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
  if (typeof input.trialEnd === 'number') {
    sub.trialEnd = input.trialEnd;
    if (sub.status === 'trialing') {
      sub.periodEnd = input.trialEnd;
      sub.billingCycleAnchor = input.trialEnd;
    }
  }
  const endTrial = input.trialEnd === 'now' && sub.status === 'trialing';
  return { oldItems, itemsChanged, intervalChanged, endTrial };
}

/**
 * The invoice the update makes now, if any (the record's period, anchor and status move with it):
 * ending a trial or changing the interval starts a new period now (with a credit for the unused time of
 * the old one unless prorations are off); `always_invoice` bills the prorations now; otherwise they wait
 * on the subscription for its next invoice. Prorations are computed at `prorationDate` (default now).
 */
export function planBilling(
  ctx: Context,
  sub: SubscriptionRecord,
  change: Change,
  behaviour: ProrationBehavior,
  now: number,
  prorationDate?: number,
): { lines: InvoiceLine[]; period: { start: number; end: number } } | null {
  const at = prorationDate ?? now;
  if (change.endTrial) {
    sub.trialEnd = now;
    return restartCycle(ctx, sub, now);
  }
  if (!change.itemsChanged || sub.status === 'trialing' || sub.status === 'incomplete') return null;
  if (change.intervalChanged) {
    // Only the credit: the new items are charged for their whole new period.
    if (behaviour !== 'none') sub.pendingLines.push(...prorations(ctx, sub, change.oldItems, at, false));
    return restartCycle(ctx, sub, now);
  }
  if (behaviour === 'none') return null;
  sub.pendingLines.push(...prorations(ctx, sub, change.oldItems, at));
  if (behaviour !== 'always_invoice') return null;
  const lines = sub.pendingLines;
  sub.pendingLines = [];
  return { lines, period: { start: now, end: sub.periodEnd } };
}

/** A new billing cycle from `at` (a trial that ends, a new interval): its first invoice's lines. */
function restartCycle(ctx: Context, sub: SubscriptionRecord, at: number) {
  const { interval, intervalCount } = intervalOf(ctx, sub);
  if (sub.status === 'trialing') sub.status = 'active';
  sub.billingCycleAnchor = at;
  sub.periodStart = at;
  sub.periodEnd = addInterval(at, interval, intervalCount);
  if (sub.cancelAtPeriodEnd) sub.cancelAt = sub.periodEnd;
  const lines = [
    ...sub.pendingLines,
    ...sub.items.map((item) => lineFor(ctx, item, sub.periodStart, sub.periodEnd)),
  ];
  sub.pendingLines = [];
  return { lines, period: { start: sub.periodStart, end: sub.periodEnd } };
}

/**
 * Credit for the unused time of the old items and (unless the cycle restarts) a charge for the new ones,
 * from `at` to the period end.
 */
function prorations(
  ctx: Context,
  sub: SubscriptionRecord,
  oldItems: SubscriptionItemRecord[],
  at: number,
  chargeNewItems = true,
): InvoiceLine[] {
  const span = sub.periodEnd - sub.periodStart;
  if (span <= 0 || at >= sub.periodEnd) return [];
  const fraction = (sub.periodEnd - at) / span;
  const line = (item: SubscriptionItemRecord, sign: 1 | -1, label: string): InvoiceLine => {
    const price = ctx.store.prices.get(item.price);
    return {
      id: newId('il'),
      amount: sign * Math.round(priceAmount(price, item.quantity) * fraction),
      description: `${label} ${item.quantity} × ${ctx.store.products.find(price.product)?.name ?? price.id}`,
      price: price.id,
      quantity: item.quantity,
      periodStart: at,
      periodEnd: sub.periodEnd,
      proration: true,
      subscriptionItem: item.id,
    };
  };
  return [
    ...oldItems.map((item) => line(item, -1, 'Unused time on')),
    ...(chargeNewItems ? sub.items.map((item) => line(item, 1, 'Remaining time on')) : []),
  ];
}
