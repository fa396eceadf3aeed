import type { Context } from '../core/context.ts';
import type {
  InvoiceLine,
  InvoicePaymentRecord,
  InvoiceRecord,
  SubscriptionItemRecord,
  SubscriptionRecord,
} from '../core/records.ts';
import { renderPlan, renderPrice } from './catalog.render.ts';
import { list, type Json } from './json.ts';

function renderSubscriptionItem(ctx: Context, sub: SubscriptionRecord, item: SubscriptionItemRecord): Json {
  const price = ctx.store.prices.get(item.price);
  return {
    id: item.id,
    object: 'subscription_item',
    billing_thresholds: null,
    created: item.created,
    current_period_end: sub.periodEnd,
    current_period_start: sub.periodStart,
    discounts: [],
    metadata: item.metadata,
    plan: renderPlan(price),
    price: renderPrice(ctx, price),
    quantity: item.quantity,
    subscription: sub.id,
    tax_rates: [],
  };
}

/** Stripe's pending_update: the held change (its items as they will be), once the update call answered. */
function renderPendingUpdate(ctx: Context, s: SubscriptionRecord): Json | null {
  const p = s.pendingUpdate;
  if (!p || p.state !== 'pending') return null;
  const after = { ...s, ...p.apply };
  return {
    billing_cycle_anchor: p.shown.billingCycleAnchor,
    cancel_at_period_end: null,
    discount: null,
    discounts: null,
    expires_at: p.expiresAt,
    metadata: p.shown.metadata,
    subscription_items: p.apply.items.map((i) => renderSubscriptionItem(ctx, after, i)),
    trial_end: p.shown.trialEnd,
    trial_from_plan: null,
  };
}

export function renderSubscription(ctx: Context, s: SubscriptionRecord): Json {
  return {
    id: s.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: s.billingCycleAnchor,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_thresholds: null,
    cancel_at: s.cancelAt,
    cancel_at_period_end: s.cancelAtPeriodEnd,
    canceled_at: s.canceledAt,
    cancellation_details: s.cancellationDetails,
    collection_method: 'charge_automatically',
    created: s.created,
    currency: s.currency,
    customer: s.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: s.defaultPaymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: s.description,
    discounts: s.coupons.map((c) => `di_${s.id.slice(4)}_${c}`),
    ended_at: s.endedAt,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: list(
      `/v1/subscription_items?subscription=${s.id}`,
      s.items.map((i) => renderSubscriptionItem(ctx, s, i)),
    ),
    latest_invoice: s.latestInvoice,
    livemode: false,
    metadata: s.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: s.saveDefaultPaymentMethod,
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: s.pendingSetupIntent,
    pending_update: renderPendingUpdate(ctx, s),
    schedule: null,
    start_date: s.startDate,
    status: s.status,
    test_clock: s.testClock,
    transfer_data: null,
    trial_end: s.trialEnd,
    trial_settings: { end_behavior: { missing_payment_method: s.trialEndBehavior } },
    trial_start: s.trialStart,
  };
}

function renderInvoiceLine(ctx: Context, inv: InvoiceRecord, line: InvoiceLine): Json {
  const price = line.price ? ctx.store.prices.find(line.price) : undefined;
  return {
    id: line.id,
    object: 'line_item',
    amount: line.amount,
    currency: inv.currency,
    description: line.description,
    discount_amounts: [],
    discountable: !line.proration,
    discounts: [],
    invoice: inv.id,
    livemode: false,
    metadata: {},
    parent: inv.subscription
      ? {
          invoice_item_details: null,
          subscription_item_details: {
            invoice_item: null,
            proration: line.proration,
            proration_details: { credited_items: null },
            subscription: inv.subscription,
            subscription_item: line.subscriptionItem,
          },
          type: 'subscription_item_details',
        }
      : null,
    period: { end: line.periodEnd, start: line.periodStart },
    pretax_credit_amounts: [],
    pricing: price
      ? {
          price_details: { price: price.id, product: price.product },
          type: 'price_details',
          unit_amount_decimal: price.unitAmount === null ? null : String(price.unitAmount),
        }
      : null,
    quantity: line.quantity,
    quantity_decimal: String(line.quantity),
    subtotal: line.amount,
    taxes: [],
  };
}

export function renderInvoice(ctx: Context, inv: InvoiceRecord): Json {
  const customer = ctx.store.customers.find(inv.customer);
  const sub = inv.subscription ? ctx.store.subscriptions.find(inv.subscription) : undefined;
  const due = inv.status === 'void' ? 0 : inv.total;
  return {
    id: inv.id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Helix (stripe-local)',
    account_tax_ids: null,
    amount_due: inv.total,
    amount_overpaid: 0,
    amount_paid: inv.amountPaid,
    amount_remaining: Math.max(0, due - inv.amountPaid),
    amount_shipping: 0,
    application: null,
    attempt_count: inv.attemptCount,
    attempted: inv.attempted,
    auto_advance: (inv.status === 'open' || inv.status === 'draft') && inv.autoAdvance !== false,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: inv.billingReason,
    collection_method: 'charge_automatically',
    created: inv.created,
    currency: inv.currency,
    custom_fields: null,
    customer: inv.customer,
    customer_account: null,
    customer_address: null,
    customer_email: customer?.email ?? null,
    customer_name: customer?.name ?? null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: inv.defaultPaymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: inv.description ?? null,
    discounts: inv.coupons.map((c) => `di_${(inv.subscription ?? inv.id).slice(4)}_${c}`),
    due_date: null,
    effective_at: inv.finalizedAt,
    ending_balance: inv.finalizedAt ? 0 : null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: inv.finalizedAt ? ctx.url(`/i/${inv.id}`) : null,
    invoice_pdf: inv.finalizedAt ? ctx.url(`/i/${inv.id}/pdf`) : null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: list(
      `/v1/invoices/${inv.id}/lines`,
      inv.lines.map((l) => renderInvoiceLine(ctx, inv, l)),
    ),
    livemode: false,
    metadata: inv.metadata,
    next_payment_attempt: inv.nextPaymentAttempt,
    number: inv.finalizedAt ? inv.number : null,
    on_behalf_of: null,
    parent: sub
      ? {
          quote_details: null,
          subscription_details: { metadata: sub.metadata, subscription: sub.id },
          type: 'subscription_details',
        }
      : null,
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: inv.periodEnd,
    period_start: inv.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: inv.status,
    status_transitions: {
      finalized_at: inv.finalizedAt,
      marked_uncollectible_at: inv.markedUncollectibleAt ?? null,
      paid_at: inv.paidAt,
      voided_at: inv.voidedAt,
    },
    subtotal: inv.subtotal,
    subtotal_excluding_tax: inv.subtotal,
    test_clock: inv.testClock,
    total: inv.total,
    total_discount_amounts: inv.discountAmount
      ? [
          {
            amount: inv.discountAmount,
            discount: inv.coupons.map((c) => `di_${(inv.subscription ?? inv.id).slice(4)}_${c}`)[0],
          },
        ]
      : [],
    total_excluding_tax: inv.total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: inv.created,
  };
}

export function renderInvoicePayment(_ctx: Context, p: InvoicePaymentRecord): Json {
  return {
    id: p.id,
    object: 'invoice_payment',
    amount_paid: p.amountPaid,
    amount_requested: p.amountRequested,
    created: p.created,
    currency: p.currency,
    invoice: p.invoice,
    is_default: true,
    livemode: false,
    payment: { payment_intent: p.paymentIntent, type: 'payment_intent' },
    status: p.status,
    status_transitions: { canceled_at: p.canceledAt, paid_at: p.paidAt },
  };
}
