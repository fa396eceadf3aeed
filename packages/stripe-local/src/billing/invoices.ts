import type { Context } from '../core/context.ts';
import { changedFields, emit } from '../core/events.ts';
import { newId } from '../core/ids.ts';
import type { InvoiceLine, InvoiceRecord, PaymentIntentRecord, SubscriptionRecord } from '../core/records.ts';
import { renderSubscription } from '../core/render.ts';
import { invoiceTotals } from './amounts.ts';
import { applyPendingUpdate, discardPendingUpdate } from './pending-update.ts';
import { attemptPayment, newPaymentIntent } from './payment-intents.ts';
import { DAY } from './time.ts';

/** Smart retries as a fixed schedule: after the first failure, 3 more attempts on days 3, 5 and 7. */
export const RETRY_DAYS = [3, 5, 7];

/** The subscription's coupons that apply to an invoice of this reason and period. */
export function applicableCoupons(
  ctx: Context,
  sub: SubscriptionRecord,
  reason: InvoiceRecord['billingReason'],
  periodStart: number,
): string[] {
  return sub.coupons.filter((id) => {
    const coupon = ctx.store.coupons.find(id);
    if (!coupon) return false;
    if (coupon.duration === 'once') return reason === 'subscription_create';
    if (coupon.duration === 'repeating')
      return periodStart < sub.startDate + (coupon.durationInMonths ?? 0) * 31 * DAY;
    return true;
  });
}

/** What every new invoice starts with: a draft, nothing paid or attempted, no payment yet. */
type DraftFields =
  | 'status'
  | 'amountPaid'
  | 'attemptCount'
  | 'attempted'
  | 'paymentIntent'
  | 'payments'
  | 'defaultPaymentMethod'
  | 'finalizedAt'
  | 'paidAt'
  | 'voidedAt'
  | 'metadata';

/** A new draft invoice: the given fields over the blank state every invoice starts in. */
export function draftInvoice(fields: Omit<InvoiceRecord, DraftFields>): InvoiceRecord {
  return {
    ...fields,
    status: 'draft',
    amountPaid: 0,
    attemptCount: 0,
    attempted: false,
    paymentIntent: null,
    payments: [],
    defaultPaymentMethod: null,
    finalizedAt: null,
    paidAt: null,
    voidedAt: null,
    metadata: {},
  };
}

/** The line that carries a negative invoice's rest to the customer's next invoice. */
export const carriedCredit = (amount: number, at: number): InvoiceLine => ({
  id: newId('il'),
  amount,
  description: 'Credit carried over from a previous invoice',
  price: null,
  quantity: 1,
  periodStart: at,
  periodEnd: at,
  proration: true,
  subscriptionItem: null,
});

export function createInvoice(
  ctx: Context,
  sub: SubscriptionRecord,
  reason: InvoiceRecord['billingReason'],
  lines: InvoiceLine[],
  period: { start: number; end: number },
): InvoiceRecord {
  const customer = ctx.store.customers.get(sub.customer);
  const now = ctx.nowFor(customer.testClock);
  // The customer's pending items (a cancellation's credit, a credit carried over) go on this invoice.
  if (customer.pendingLines?.length) {
    lines = [...customer.pendingLines, ...lines];
    customer.pendingLines = [];
  }
  const coupons = applicableCoupons(ctx, sub, reason, period.start);
  const { subtotal, discountAmount, total, credit } = invoiceTotals(
    lines,
    coupons.map((id) => ctx.store.coupons.get(id)),
  );
  // A negative invoice is $0 and the rest is credit for the next one (Stripe's customer balance).
  if (credit < 0) customer.pendingLines = [...(customer.pendingLines ?? []), carriedCredit(credit, now)];
  const inv = ctx.store.invoices.add(
    draftInvoice({
      id: newId('in'),
      created: now,
      number: `${customer.id.slice(4, 12).toUpperCase()}-${String(++ctx.store.invoiceSequence).padStart(4, '0')}`,
      customer: customer.id,
      subscription: sub.id,
      billingReason: reason,
      currency: sub.currency,
      lines,
      subtotal,
      discountAmount,
      total,
      nextPaymentAttempt: null,
      periodStart: period.start,
      periodEnd: period.end,
      coupons,
      testClock: customer.testClock,
    }),
  );
  sub.latestInvoice = inv.id;
  emit(ctx, 'invoice.created', inv.id);
  return inv;
}

/** Finalizes: a number, and for an amount due a PaymentIntent (paid through an InvoicePayment). */
export function finalizeInvoice(ctx: Context, inv: InvoiceRecord): void {
  const now = ctx.nowFor(inv.testClock);
  inv.status = 'open';
  inv.finalizedAt = now;
  if (inv.total > 0) {
    const pi = newPaymentIntent(ctx, {
      amount: inv.total,
      currency: inv.currency,
      customer: inv.customer,
      description: inv.subscription ? 'Subscription creation' : null,
      invoice: inv.id,
    });
    pi.created = now;
    addInvoicePayment(ctx, inv, pi.id, inv.total, now);
  }
  emit(ctx, 'invoice.finalized', inv.id);
  if (inv.total === 0) markPaid(ctx, inv, null);
}

/** The invoice's payment record (Stripe's InvoicePayment) for the PaymentIntent that collects it. */
export function addInvoicePayment(
  ctx: Context,
  inv: InvoiceRecord,
  paymentIntent: string,
  amount: number,
  now: number,
): void {
  inv.paymentIntent = paymentIntent;
  const payment = ctx.store.invoicePayments.add({
    id: newId('inpay'),
    created: now,
    invoice: inv.id,
    paymentIntent,
    amountRequested: amount,
    amountPaid: null,
    currency: inv.currency,
    status: 'open',
    paidAt: null,
    canceledAt: null,
  });
  inv.payments.push(payment.id);
}

/** The PaymentMethod Stripe charges for an invoice: the invoice's, the subscription's, then the customer's default. */
export function invoicePaymentMethod(ctx: Context, inv: InvoiceRecord): string | null {
  const sub = inv.subscription ? ctx.store.subscriptions.find(inv.subscription) : undefined;
  const customer = ctx.store.customers.find(inv.customer);
  return inv.defaultPaymentMethod ?? sub?.defaultPaymentMethod ?? customer?.defaultPaymentMethod ?? null;
}

/**
 * One collection attempt. With no PaymentMethod at all the attempt fails without a charge (as Stripe's
 * does); otherwise the card decides.
 */
export function attemptInvoice(
  ctx: Context,
  inv: InvoiceRecord,
  options: { offSession: boolean; paymentMethod?: string },
): 'succeeded' | 'requires_action' | 'failed' {
  const payable = inv.status === 'open' || inv.status === 'uncollectible';
  if (!payable || !inv.paymentIntent) return inv.status === 'paid' ? 'succeeded' : 'failed';
  const pi = ctx.store.paymentIntents.get(inv.paymentIntent);
  inv.attemptCount += 1;
  inv.attempted = true;
  const pm = options.paymentMethod ?? invoicePaymentMethod(ctx, inv);
  if (!pm) {
    invoicePaymentFailed(ctx, inv.id, pi);
    return 'failed';
  }
  pi.paymentMethod = pm;
  return attemptPayment(ctx, pi, options.offSession);
}

export function markPaid(ctx: Context, inv: InvoiceRecord, pi: PaymentIntentRecord | null): void {
  const now = ctx.nowFor(inv.testClock);
  inv.status = 'paid';
  inv.amountPaid = inv.total;
  inv.paidAt = now;
  inv.nextPaymentAttempt = null;
  inv.attempted = true;
  for (const id of inv.payments) {
    const payment = ctx.store.invoicePayments.get(id);
    if (pi && payment.paymentIntent === pi.id) {
      payment.status = 'paid';
      payment.amountPaid = inv.total;
      payment.paidAt = now;
    }
  }
  emit(ctx, 'invoice.paid', inv.id);
  emit(ctx, 'invoice.payment_succeeded', inv.id);
  const sub = inv.subscription ? ctx.store.subscriptions.find(inv.subscription) : undefined;
  if (!sub) return;
  if (sub.pendingUpdate?.invoice === inv.id) applyPendingUpdate(ctx, sub);
  const before = renderSubscription(ctx, sub);
  if (pi?.paymentMethod && sub.saveDefaultPaymentMethod === 'on_subscription')
    sub.defaultPaymentMethod = pi.paymentMethod;
  const stillOpen = [...ctx.store.invoices.values()].some(
    (other) => other.subscription === sub.id && other.status === 'open',
  );
  if (['incomplete', 'past_due', 'unpaid'].includes(sub.status) && !stillOpen) {
    sub.status = sub.trialEnd && sub.trialEnd > now ? 'trialing' : 'active';
    sub.incompleteExpiresAt = null;
  }
  const previous = changedFields(before, renderSubscription(ctx, sub));
  if (Object.keys(previous).length) emit(ctx, 'customer.subscription.updated', sub.id, { previous });
}

export function invoicePaymentSucceeded(ctx: Context, invoiceId: string, pi: PaymentIntentRecord): void {
  const inv = ctx.store.invoices.find(invoiceId);
  if (inv && (inv.status === 'open' || inv.status === 'uncollectible')) markPaid(ctx, inv, pi);
}

/** A renewal that needs the customer (3-D Secure) leaves the subscription past_due until they act. */
export function invoicePaymentActionRequired(ctx: Context, invoiceId: string): void {
  const inv = ctx.store.invoices.find(invoiceId);
  if (!inv) return;
  emit(ctx, 'invoice.payment_action_required', inv.id);
  settleSubscriptionAfterFailure(ctx, inv, false);
}

export function invoicePaymentFailed(ctx: Context, invoiceId: string, _pi: PaymentIntentRecord): void {
  const inv = ctx.store.invoices.find(invoiceId);
  if (!inv || (inv.status !== 'open' && inv.status !== 'uncollectible')) return;
  emit(ctx, 'invoice.payment_failed', inv.id);
  settleSubscriptionAfterFailure(ctx, inv, true);
}

function settleSubscriptionAfterFailure(ctx: Context, inv: InvoiceRecord, scheduleRetry: boolean): void {
  const sub = inv.subscription ? ctx.store.subscriptions.find(inv.subscription) : undefined;
  if (!sub || inv.billingReason === 'subscription_create') return; // stays incomplete until paid or expired
  // A pending update's invoice: the subscription goes on as if no change was asked (no retries, no
  // past_due); the customer pays it on purpose or it expires.
  if (sub.pendingUpdate?.invoice === inv.id) return;
  const now = ctx.nowFor(inv.testClock);
  if (scheduleRetry && inv.autoAdvance !== false && inv.status === 'open') {
    const base = inv.finalizedAt ?? now;
    const day = RETRY_DAYS[inv.attemptCount - 1];
    inv.nextPaymentAttempt = day === undefined ? null : base + day * DAY;
    emit(ctx, 'invoice.updated', inv.id);
  }
  if (sub.status === 'active' || sub.status === 'trialing') {
    const before = renderSubscription(ctx, sub);
    sub.status = 'past_due';
    emit(ctx, 'customer.subscription.updated', sub.id, {
      previous: changedFields(before, renderSubscription(ctx, sub)),
    });
  }
}

/**
 * Stripe's rule when a subscription ends: automatic collection of its finalized invoices stops
 * (`auto_advance: false`, no next attempt), so no retry and no card update collects them later. They
 * stay open until voided, marked uncollectible or paid on purpose.
 */
export function stopCollection(ctx: Context, sub: SubscriptionRecord): void {
  for (const inv of ctx.store.invoices.values()) {
    if (inv.subscription !== sub.id || inv.status !== 'open' || inv.autoAdvance === false) continue;
    inv.autoAdvance = false;
    inv.nextPaymentAttempt = null;
    emit(ctx, 'invoice.updated', inv.id, { previous: { auto_advance: true } });
  }
}

/** An invoice nobody will pay: still payable on purpose, never collected automatically. */
export function markUncollectible(ctx: Context, inv: InvoiceRecord): void {
  if (inv.status !== 'open') return;
  inv.status = 'uncollectible';
  inv.markedUncollectibleAt = ctx.nowFor(inv.testClock);
  inv.nextPaymentAttempt = null;
  inv.autoAdvance = false;
  emit(ctx, 'invoice.marked_uncollectible', inv.id);
  emit(ctx, 'invoice.updated', inv.id, { previous: { status: 'open' } });
}

export function voidInvoice(ctx: Context, inv: InvoiceRecord): void {
  if (inv.status !== 'open' && inv.status !== 'draft' && inv.status !== 'uncollectible') return;
  inv.status = 'void';
  inv.voidedAt = ctx.nowFor(inv.testClock);
  inv.nextPaymentAttempt = null;
  const pi = inv.paymentIntent ? ctx.store.paymentIntents.find(inv.paymentIntent) : undefined;
  if (pi && pi.status !== 'succeeded' && pi.status !== 'canceled') {
    pi.status = 'canceled';
    pi.canceledAt = inv.voidedAt;
    pi.cancellationReason = 'void_invoice';
    pi.nextAction = null;
    emit(ctx, 'payment_intent.canceled', pi.id);
  }
  for (const id of inv.payments) {
    const payment = ctx.store.invoicePayments.get(id);
    if (payment.status === 'open') {
      payment.status = 'canceled';
      payment.canceledAt = inv.voidedAt;
    }
  }
  emit(ctx, 'invoice.voided', inv.id);
  const sub = inv.subscription ? ctx.store.subscriptions.find(inv.subscription) : undefined;
  if (sub?.pendingUpdate?.invoice === inv.id) discardPendingUpdate(ctx, sub);
}
