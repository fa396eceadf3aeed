import type { Stripe } from './stripe-client.ts';

/**
 * "Obtain the payment intent from the latest invoice" on API 2026-10-28: an invoice no longer has
 * `payment_intent`. Its payments (`invoice.payments`, InvoicePayment objects) name the payment intent
 * (`payment.payment_intent`); `confirmation_secret.client_secret` is that payment intent's client
 * secret. We read the invoice with both expanded, take the open (else the newest) payment's intent and
 * retrieve it for its status; when no payment is listed yet, the intent's id is the part of the
 * confirmation secret before '_secret_'. A zero invoice (a trial) has neither: null.
 */
export async function invoicePaymentIntent(
  stripe: Stripe,
  invoiceId: string,
): Promise<{ invoice: Stripe.Invoice; paymentIntent: Stripe.PaymentIntent | null }> {
  const invoice = await stripe.invoices.retrieve(invoiceId, { expand: ['payments', 'confirmation_secret'] });
  const payments = invoice.payments?.data ?? [];
  const chosen = payments.find((p) => p.status === 'open') ?? payments[0];
  let intentId: string | null = null;
  const fromPayment = chosen?.payment?.payment_intent;
  if (fromPayment) intentId = typeof fromPayment === 'string' ? fromPayment : fromPayment.id;
  const secret = invoice.confirmation_secret?.client_secret;
  if (!intentId && secret && invoice.confirmation_secret?.type === 'payment_intent') {
    intentId = secret.split('_secret_')[0] ?? null;
  }
  if (!intentId) return { invoice, paymentIntent: null };
  return { invoice, paymentIntent: await stripe.paymentIntents.retrieve(intentId) };
}
