import type {
  InvoiceView,
  LatestInvoiceView,
  PaymentActionView,
  PaymentIntentView,
  SetupIntentView,
  SubscriptionView,
} from '@helix/shared/schemas/billing';
import type { Stripe } from './stripe-client.ts';

/** The only shapes in which Stripe objects leave the API: ids, statuses, amounts and client secrets. */

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

export const presentSetupIntent = (si: Stripe.SetupIntent): SetupIntentView => ({
  id: si.id,
  status: si.status as SetupIntentView['status'],
  payment_method: idOf(si.payment_method),
  client_secret: si.client_secret,
});

export const presentPaymentIntent = (pi: Stripe.PaymentIntent): PaymentIntentView => ({
  id: pi.id,
  status: pi.status as PaymentIntentView['status'],
  client_secret: pi.client_secret,
  amount: pi.amount,
  currency: pi.currency,
  payment_method: idOf(pi.payment_method),
});

export const presentInvoice = (
  invoice: Stripe.Invoice,
  paymentIntent: Stripe.PaymentIntent | null,
): LatestInvoiceView => ({
  id: invoice.id ?? '',
  status: invoice.status ?? null,
  amount_due: invoice.amount_due,
  payment_intent: paymentIntent ? presentPaymentIntent(paymentIntent) : null,
});

export const presentSubscription = (
  sub: Stripe.Subscription,
  planId: number,
  latestInvoice: LatestInvoiceView | null,
): SubscriptionView => ({
  id: sub.id,
  status: sub.status as SubscriptionView['status'],
  planId,
  quantity: sub.items.data[0]?.quantity ?? 1,
  trial_end: sub.trial_end ?? null,
  latest_invoice: latestInvoice,
});

/** A payment waiting for the customer: the invoice, its hosted page and the intent to confirm. */
export const presentPaymentAction = (
  invoice: Stripe.Invoice,
  paymentIntent: Stripe.PaymentIntent | null,
): PaymentActionView => ({
  invoiceId: invoice.id ?? '',
  amountDue: invoice.amount_due,
  currency: invoice.currency,
  hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
  paymentIntent: paymentIntent ? presentPaymentIntent(paymentIntent) : null,
});

const INVOICE_STATUSES = new Set(['draft', 'open', 'paid', 'uncollectible', 'void']);

/**
 * The line that names what an invoice charges for: the largest charge, not a credit for unused time
 * (an upgrade's invoice is "Remaining time on 10 x Educator Monthly", not "Unused time on ...").
 */
export const planLineOf = <L extends { amount: number }>(lines: L[]): L | undefined =>
  lines.reduce<L | undefined>((best, l) => (l.amount > (best?.amount ?? -Infinity) ? l : best), undefined);

const subscriptionOf = (invoice: Stripe.Invoice): string | null =>
  idOf(invoice.parent?.subscription_details?.subscription ?? null);

/**
 * Whether an open invoice is one the customer should pay: it belongs to the live subscription, whose
 * payment failed (past_due or unpaid), and it is not a plan change waiting for its payment. A card
 * form's first invoice, a left plan change and anything of an ended subscription are not.
 */
export function invoicePayable(invoice: Stripe.Invoice, live: Stripe.Subscription | null): boolean {
  if (invoice.status !== 'open' || !live || subscriptionOf(invoice) !== live.id) return false;
  if (live.pending_update) return false;
  return live.status === 'past_due' || live.status === 'unpaid';
}

/**
 * One invoice of the billing history. The period is the subscription lines' (else the invoice's).
 * `live` is the subscription in force (null: none), which decides whether an open invoice is payable.
 */
export function presentInvoiceRow(
  invoice: Stripe.Invoice,
  live: Stripe.Subscription | null = null,
): InvoiceView {
  const payable = invoicePayable(invoice, live);
  const lines = invoice.lines?.data ?? [];
  const starts = lines.map((l) => l.period?.start).filter((v): v is number => typeof v === 'number');
  const ends = lines.map((l) => l.period?.end).filter((v): v is number => typeof v === 'number');
  return {
    id: invoice.id ?? '',
    number: invoice.number ?? null,
    created: invoice.created,
    periodStart: starts.length ? Math.min(...starts) : (invoice.period_start ?? null),
    periodEnd: ends.length ? Math.max(...ends) : (invoice.period_end ?? null),
    total: invoice.total,
    amountDue: invoice.amount_due,
    amountPaid: invoice.amount_paid,
    currency: invoice.currency,
    status:
      invoice.status && INVOICE_STATUSES.has(invoice.status)
        ? (invoice.status as InvoiceView['status'])
        : null,
    description: invoice.description ?? planLineOf(lines)?.description ?? null,
    hostedInvoiceUrl: invoice.status === 'open' && !payable ? null : (invoice.hosted_invoice_url ?? null),
    invoicePdf: invoice.invoice_pdf ?? null,
    payable,
  };
}
