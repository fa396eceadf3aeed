import type {
  LatestInvoiceView,
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
