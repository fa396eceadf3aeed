import type { Context } from '../core/context.ts';
import { invalidRequest } from '../core/errors.ts';
import { stripeLocalUnsupported } from '../core/sdk-params.ts';
import { changedFields, emit } from '../core/events.ts';
import type { SubscriptionRecord } from '../core/records.ts';
import { renderSubscription } from '../core/render.ts';
import { HOUR } from './time.ts';

/**
 * Stripe's pending updates (payment_behavior=pending_if_incomplete): a change that makes an invoice is
 * held in `pending_update` until that invoice is paid; the subscription keeps its items, price and
 * quantity meanwhile. https://docs.stripe.com/billing/subscriptions/pending-updates
 */

/**
 * The update parameters Stripe allows with pending_if_incomplete (its "supported attributes"; metadata
 * since 2026-05-27.dahlia). The others are refused, as Stripe does. trial_from_plan and
 * add_invoice_items are not implemented at all (the route's shape refuses them as stripe_local_unsupported).
 */
const PENDING_TOP = new Set([
  'payment_behavior',
  'proration_behavior',
  'proration_date',
  'billing_cycle_anchor',
  'items',
  'trial_end',
  'metadata',
]);
const PENDING_ITEM = new Set(['id', 'price', 'quantity']);
/**
 * The pinned version's pending_update also holds these (its type has cancel_at_period_end and
 * discounts), so Stripe may take them in a pending update; stripe-local does not hold them.
 */
const PENDING_NOT_IMPLEMENTED = new Set(['cancel_at_period_end', 'discounts']);

export function checkPendingParams(params: Record<string, unknown>): void {
  const refuse = (param: string) =>
    invalidRequest(
      `The parameter ${param} cannot be used with payment_behavior=pending_if_incomplete. Pending updates support only: ${[...PENDING_TOP].join(', ')} (items with id, price, quantity).`,
      { param },
    );
  for (const key of Object.keys(params)) {
    if (PENDING_NOT_IMPLEMENTED.has(key)) throw stripeLocalUnsupported(key);
    if (!PENDING_TOP.has(key)) throw refuse(key);
  }
  const items = Array.isArray(params.items) ? (params.items as Record<string, unknown>[]) : [];
  for (const [i, item] of items.entries())
    for (const key of Object.keys(item)) if (!PENDING_ITEM.has(key)) throw refuse(`items[${i}][${key}]`);
}

/**
 * When an unpaid pending update is discarded: the trial end or the period end if one comes within 23
 * hours of the update, else 23 hours after it.
 */
export function pendingExpiry(sub: SubscriptionRecord, now: number): number {
  const trialEnd = sub.status === 'trialing' && sub.trialEnd ? sub.trialEnd : Infinity;
  return Math.min(now + 23 * HOUR, sub.periodEnd, trialEnd);
}

/**
 * The invoice of the pending update is paid: the held change becomes the subscription's. While the
 * update call itself is paying, the call reports the change (nothing was ever pending); later it is
 * `customer.subscription.updated` and `customer.subscription.pending_update_applied`.
 */
export function applyPendingUpdate(ctx: Context, sub: SubscriptionRecord): void {
  const pending = sub.pendingUpdate;
  if (!pending) return;
  const before = renderSubscription(ctx, sub);
  Object.assign(sub, pending.apply);
  sub.pendingUpdate = null;
  if (pending.state === 'attempting') return;
  emit(ctx, 'customer.subscription.updated', sub.id, {
    previous: changedFields(before, renderSubscription(ctx, sub)),
  });
  emit(ctx, 'customer.subscription.pending_update_applied', sub.id);
}

/**
 * The held change is dropped (its invoice voided, expired, replaced by a newer change, or the
 * subscription ended): the subscription stays as it was.
 */
export function discardPendingUpdate(ctx: Context, sub: SubscriptionRecord): void {
  const pending = sub.pendingUpdate;
  if (!pending) return;
  const before = renderSubscription(ctx, sub);
  sub.pendingUpdate = null;
  if (pending.state === 'attempting') return;
  emit(ctx, 'customer.subscription.updated', sub.id, {
    previous: changedFields(before, renderSubscription(ctx, sub)),
  });
}
