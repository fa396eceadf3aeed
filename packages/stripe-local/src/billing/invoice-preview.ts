import type { Context } from '../core/context.ts';
import { invalidRequest } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import type { InvoiceLine, InvoiceRecord, SubscriptionRecord } from '../core/records.ts';
import { renderInvoice, type Json } from '../core/render.ts';
import { invoiceTotals } from './amounts.ts';
import { applicableCoupons, draftInvoice } from './invoices.ts';
import {
  applyChanges,
  planBilling,
  type ProrationBehavior,
  type UpdateItemInput,
} from './subscription-change.ts';
import { intervalOf, lineFor, recurringPrice } from './subscription-helpers.ts';
import { addInterval, nextPeriodEnd } from './time.ts';

/**
 * `POST /v1/invoices/create_preview`: the invoice Stripe would make, without making anything. With a
 * subscription and `subscription_details`, the update is worked out on a copy by the same code as a real
 * update (subscription-change.ts): `always_invoice`, a trial that ends or a new interval give the invoice
 * made now; otherwise the next renewal with the prorations waiting for it. Without a subscription, the
 * first invoice of a new one. Nothing is stored: the records are only read.
 */

export interface PreviewInput {
  customer?: string;
  subscription?: string;
  details?: {
    items?: UpdateItemInput[];
    prorationBehavior?: ProrationBehavior;
    prorationDate?: number;
    trialEnd?: number | 'now';
  };
}

interface Draft {
  sub: SubscriptionRecord;
  reason: InvoiceRecord['billingReason'];
  lines: InvoiceLine[];
  period: { start: number; end: number };
  /** When the invoice is made and charged. */
  at: number;
}

const nothingToInvoice = (customer: string) =>
  invalidRequest(`No upcoming invoices for customer: ${customer}`, { code: 'invoice_upcoming_none' }, 404);

export function previewInvoice(ctx: Context, input: PreviewInput): Json {
  const draft = input.subscription ? ofSubscription(ctx, input) : ofNewSubscription(ctx, input);
  const customer = ctx.store.customers.get(draft.sub.customer);
  const lines = [...(customer.pendingLines ?? []), ...draft.lines].map((l) => ({
    ...l,
    id: newId('il_tmp'),
    subscriptionItem: l.subscriptionItem || null,
  }));
  const coupons = input.subscription
    ? applicableCoupons(ctx, draft.sub, draft.reason, draft.period.start)
    : [];
  const totals = invoiceTotals(
    lines,
    coupons.map((id) => ctx.store.coupons.get(id)),
  );
  const inv = draftInvoice({
    id: newId('upcoming_in'),
    created: draft.at,
    number: '',
    customer: customer.id,
    subscription: input.subscription ?? null,
    billingReason: draft.reason,
    currency: draft.sub.currency,
    lines,
    subtotal: totals.subtotal,
    discountAmount: totals.discountAmount,
    total: totals.total,
    nextPaymentAttempt: totals.total > 0 ? draft.at : null,
    periodStart: draft.period.start,
    periodEnd: draft.period.end,
    coupons,
    testClock: customer.testClock,
  });
  return renderInvoice(ctx, inv);
}

function ofSubscription(ctx: Context, input: PreviewInput): Draft {
  const stored = ctx.store.subscriptions.get(input.subscription!, 'subscription');
  if (input.customer !== undefined && input.customer !== stored.customer)
    throw invalidRequest(`The subscription ${stored.id} does not belong to the customer ${input.customer}.`, {
      param: 'subscription',
    });
  if (stored.status === 'canceled' || stored.status === 'incomplete_expired')
    throw nothingToInvoice(stored.customer);
  const sub = structuredClone(stored);
  const now = ctx.nowFor(sub.testClock);
  const details = input.details;
  if (details) {
    const change = applyChanges(
      ctx,
      sub,
      { items: details.items, trialEnd: details.trialEnd, prorationDate: details.prorationDate },
      now,
    );
    const bill = planBilling(
      ctx,
      sub,
      change,
      details.prorationBehavior ?? 'create_prorations',
      now,
      details.prorationDate,
    );
    if (bill) return { sub, reason: 'subscription_update', ...bill, at: now };
  }
  // The next renewal (or the trial's end), with the prorations waiting for it.
  if (sub.cancelAt !== null && sub.cancelAt <= sub.periodEnd) throw nothingToInvoice(sub.customer);
  const { interval, intervalCount } = intervalOf(ctx, sub);
  const start = sub.periodEnd;
  const anchor = sub.status === 'trialing' ? start : sub.billingCycleAnchor;
  const end = nextPeriodEnd(anchor, interval, intervalCount, start);
  const lines = [...sub.pendingLines, ...sub.items.map((item) => lineFor(ctx, item, start, end))];
  return { sub, reason: 'subscription_cycle', lines, period: { start, end }, at: start };
}

/** The first invoice of a new subscription with these items (a trial's is $0). */
function ofNewSubscription(ctx: Context, input: PreviewInput): Draft {
  if (!input.customer)
    throw invalidRequest('Missing required param: customer.', {
      code: 'parameter_missing',
      param: 'customer',
    });
  const customer = ctx.store.customers.get(input.customer, 'customer');
  const items = input.details?.items ?? [];
  if (!items.length) throw nothingToInvoice(customer.id);
  const now = ctx.nowFor(customer.testClock);
  const prices = items.map((item, i) => {
    if (!item.price || item.id || item.deleted)
      throw invalidRequest('Without a subscription, each item needs a price (and no id).', {
        param: `subscription_details[items][${i}][price]`,
      });
    return recurringPrice(ctx, item.price, `subscription_details[items][${i}][price]`);
  });
  const trialEnd = typeof input.details?.trialEnd === 'number' ? input.details.trialEnd : null;
  if (trialEnd !== null && trialEnd <= now)
    throw invalidRequest('Invalid timestamp: must be an integer Unix timestamp in the future.', {
      param: 'subscription_details[trial_end]',
    });
  const first = prices[0]!;
  const end = trialEnd ?? addInterval(now, first.recurring!.interval, first.recurring!.intervalCount);
  const sub = {
    id: '',
    customer: customer.id,
    currency: first.currency,
    coupons: [],
  } as unknown as SubscriptionRecord;
  const lines = items.map((item, i) =>
    lineFor(
      ctx,
      { id: '', created: now, price: prices[i]!.id, quantity: item.quantity ?? 1, metadata: {} },
      now,
      end,
      trialEnd !== null,
    ),
  );
  return { sub, reason: 'subscription_create', lines, period: { start: now, end }, at: now };
}
