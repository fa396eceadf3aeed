import type { Context } from '../core/context.ts';
import { emit } from '../core/events.ts';
import type { SubscriptionRecord } from '../core/records.ts';
import {
  attemptInvoice,
  createInvoice,
  finalizeInvoice,
  markUncollectible,
  voidInvoice,
} from './invoices.ts';
import type { InvoiceRecord } from '../core/records.ts';
import { discardPendingUpdate } from './pending-update.ts';
import { DAY, nextPeriodEnd } from './time.ts';
import { endSubscription, intervalOf, lineFor, maybeTrialWillEnd, update } from './subscription-helpers.ts';

/** Starts a new period at `at` and invoices it (trial end, renewal), charging off-session. */
function renew(
  ctx: Context,
  sub: SubscriptionRecord,
  at: number,
  reason: 'subscription_cycle' | 'subscription_update',
): void {
  const { interval, intervalCount } = intervalOf(ctx, sub);
  const customer = ctx.store.customers.find(sub.customer);
  if (sub.status === 'trialing' && !sub.defaultPaymentMethod && !customer?.defaultPaymentMethod) {
    // trial_settings[end_behavior][missing_payment_method]
    if (sub.trialEndBehavior === 'cancel') return endSubscription(ctx, sub, null);
    if (sub.trialEndBehavior === 'pause') {
      update(ctx, sub, () => {
        sub.status = 'paused';
      });
      emit(ctx, 'customer.subscription.paused', sub.id);
      return;
    }
  }
  update(ctx, sub, () => {
    if (sub.status === 'trialing') {
      sub.billingCycleAnchor = at;
      sub.status = 'active';
    }
    sub.periodStart = at;
    sub.periodEnd = nextPeriodEnd(sub.billingCycleAnchor, interval, intervalCount, at);
  });
  const lines = [
    ...sub.pendingLines,
    ...sub.items.map((item) => lineFor(ctx, item, sub.periodStart, sub.periodEnd)),
  ];
  sub.pendingLines = [];
  const inv = createInvoice(ctx, sub, reason, lines, { start: sub.periodStart, end: sub.periodEnd });
  finalizeInvoice(ctx, inv);
  if (inv.status === 'open') attemptInvoice(ctx, inv, { offSession: true });
}

export function nextDue(ctx: Context, sub: SubscriptionRecord): number | null {
  const times: number[] = [];
  if (sub.pendingUpdate) times.push(sub.pendingUpdate.expiresAt);
  if (sub.status === 'incomplete' && sub.incompleteExpiresAt) times.push(sub.incompleteExpiresAt);
  if (sub.status === 'trialing' && sub.trialEnd) {
    if (!sub.trialWillEndSent) times.push(sub.trialEnd - 3 * DAY);
    times.push(sub.trialEnd);
  }
  if (['active', 'past_due', 'trialing'].includes(sub.status)) {
    if (sub.cancelAt) times.push(sub.cancelAt);
    times.push(sub.periodEnd);
    for (const inv of ctx.store.invoices.values()) {
      if (inv.subscription === sub.id && inv.status === 'open' && inv.nextPaymentAttempt)
        times.push(inv.nextPaymentAttempt);
    }
  }
  return times.length ? Math.min(...times) : null;
}

/** Does what is due at `now` (trial reminders and ends, renewals, retries, period-end cancellation, expiry). */
export function processDue(ctx: Context, sub: SubscriptionRecord, now: number): void {
  if (sub.pendingUpdate && sub.pendingUpdate.expiresAt <= now) expirePendingUpdate(ctx, sub);
  if (sub.status === 'incomplete' && sub.incompleteExpiresAt && sub.incompleteExpiresAt <= now) {
    update(ctx, sub, () => {
      sub.status = 'incomplete_expired';
      sub.endedAt = now;
      sub.incompleteExpiresAt = null;
    });
    const inv = sub.latestInvoice ? ctx.store.invoices.find(sub.latestInvoice) : undefined;
    if (inv) voidInvoice(ctx, inv);
    return;
  }
  if (sub.status === 'trialing') maybeTrialWillEnd(ctx, sub);
  if (!['active', 'past_due', 'trialing'].includes(sub.status)) return;
  if (sub.cancelAt && sub.cancelAt <= now) {
    endSubscription(ctx, sub, 'cancellation_requested');
    return;
  }
  for (const inv of [...ctx.store.invoices.values()]) {
    if (
      inv.subscription !== sub.id ||
      inv.status !== 'open' ||
      !inv.nextPaymentAttempt ||
      inv.nextPaymentAttempt > now
    )
      continue;
    inv.nextPaymentAttempt = null;
    const outcome = attemptInvoice(ctx, inv, { offSession: true });
    if (
      outcome === 'failed' &&
      inv.nextPaymentAttempt === null &&
      inv.status === 'open' &&
      sub.status === 'past_due'
    ) {
      retriesExhausted(ctx, sub, inv);
      return;
    }
  }
  if (sub.periodEnd <= now && ['active', 'past_due', 'trialing'].includes(sub.status)) {
    if (sub.status === 'trialing') sub.trialEnd = Math.min(sub.trialEnd ?? now, now);
    renew(ctx, sub, sub.periodEnd, 'subscription_cycle');
  }
}

/** An unpaid pending update expires: its invoice is voided and the change discarded. */
function expirePendingUpdate(ctx: Context, sub: SubscriptionRecord): void {
  const inv = ctx.store.invoices.find(sub.pendingUpdate!.invoice);
  if (inv) voidInvoice(ctx, inv); // discards it (customer.subscription.updated)
  if (sub.pendingUpdate) discardPendingUpdate(ctx, sub);
  emit(ctx, 'customer.subscription.pending_update_expired', sub.id);
}

/**
 * Every retry failed: Stripe's failed-payment settings decide (ctx.options.afterRetries). The subscription
 * is canceled (its invoices no longer collected), made `unpaid` (no renewals until the invoice is paid) or
 * left `past_due`; the invoice is marked uncollectible or left open.
 */
function retriesExhausted(ctx: Context, sub: SubscriptionRecord, inv: InvoiceRecord): void {
  const settings = ctx.options.afterRetries ?? { subscription: 'cancel', invoice: 'uncollectible' };
  if (settings.invoice === 'uncollectible') markUncollectible(ctx, inv);
  if (settings.subscription === 'cancel') return endSubscription(ctx, sub, 'payment_failed');
  if (settings.subscription === 'unpaid')
    update(ctx, sub, () => {
      sub.status = 'unpaid';
    });
}
