import { DECLINE_MESSAGES } from '../cards.ts';
import type { Context } from '../core/context.ts';
import { StripeError } from '../core/errors.ts';
import { emit } from '../core/events.ts';
import { newId, randomToken } from '../core/ids.ts';
import type { LastError, PaymentIntentRecord } from '../core/records.ts';
import { renderPaymentIntent } from '../core/render.ts';
import { invoicePaymentActionRequired, invoicePaymentFailed, invoicePaymentSucceeded } from './invoices.ts';
import { attachPaymentMethod } from './payment-methods.ts';

export function newPaymentIntent(
  ctx: Context,
  fields: Partial<PaymentIntentRecord> & { amount: number; currency: string },
): PaymentIntentRecord {
  const id = newId('pi');
  return ctx.store.paymentIntents.add({
    id,
    created: ctx.nowForCustomer(fields.customer),
    clientSecret: `${id}_secret_${randomToken(25)}`,
    amountReceived: 0,
    customer: null,
    paymentMethod: null,
    paymentMethodTypes: ['card'],
    description: null,
    metadata: {},
    receiptEmail: null,
    setupFutureUsage: null,
    status: fields.paymentMethod ? 'requires_confirmation' : 'requires_payment_method',
    nextAction: null,
    lastError: null,
    latestCharge: null,
    canceledAt: null,
    cancellationReason: null,
    invoice: null,
    offSession: false,
    ...fields,
  });
}

export type Outcome = 'succeeded' | 'requires_action' | 'failed';

/**
 * Charges the intent's PaymentMethod as the test card would: succeed, ask for 3-D Secure (on-session, or
 * off-session for a card that always asks), or decline with the card's decline code.
 */
export function attemptPayment(ctx: Context, pi: PaymentIntentRecord, offSession: boolean): Outcome {
  const pm = pi.paymentMethod ? ctx.store.paymentMethods.find(pi.paymentMethod) : undefined;
  if (!pm) throw new Error(`payment intent ${pi.id} has no payment method`);
  pi.offSession = offSession;
  const behaviour = pm.card.behaviour;
  if (behaviour === 'decline_always' || behaviour === 'decline_on_charge') {
    const code = pm.card.declineCode ?? 'generic_decline';
    fail(ctx, pi, {
      type: 'card_error',
      code: 'card_declined',
      declineCode: code,
      message: DECLINE_MESSAGES[code] ?? 'Your card was declined.',
      paymentMethod: pm.id,
    });
    return 'failed';
  }
  const needsAuth =
    behaviour === 'authenticate_always' ||
    (behaviour === 'authenticate_unless_setup' && !(offSession && pm.setUpForOffSession));
  if (needsAuth) {
    if (offSession && !pi.invoice) {
      // An off-session payment cannot show a challenge: Stripe declines it with authentication_required.
      fail(ctx, pi, {
        type: 'card_error',
        code: 'authentication_required',
        declineCode: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
        paymentMethod: pm.id,
      });
      return 'failed';
    }
    pi.status = 'requires_action';
    pi.nextAction = { url: ctx.url(`/3ds/${pi.id}`) };
    pi.lastError = null;
    emit(ctx, 'payment_intent.requires_action', pi.id);
    if (pi.invoice) invoicePaymentActionRequired(ctx, pi.invoice);
    return 'requires_action';
  }
  succeed(ctx, pi);
  return 'succeeded';
}

function charge(ctx: Context, pi: PaymentIntentRecord, error: LastError | null) {
  return ctx.store.charges.add({
    id: newId('ch'),
    created: ctx.nowForCustomer(pi.customer),
    amount: pi.amount,
    currency: pi.currency,
    customer: pi.customer,
    paymentIntent: pi.id,
    paymentMethod: pi.paymentMethod ?? '',
    status: error ? 'failed' : 'succeeded',
    failureCode: error?.code ?? null,
    failureMessage: error?.message ?? null,
    declineCode: error?.declineCode ?? null,
  });
}

function succeed(ctx: Context, pi: PaymentIntentRecord): void {
  const ch = charge(ctx, pi, null);
  pi.status = 'succeeded';
  pi.amountReceived = pi.amount;
  pi.latestCharge = ch.id;
  pi.nextAction = null;
  pi.lastError = null;
  const pm = pi.paymentMethod ? ctx.store.paymentMethods.find(pi.paymentMethod) : undefined;
  // Saving a card for later (setup_future_usage, or a subscription's invoice) attaches it and, once it
  // passed any challenge on-session, lets later off-session charges go through.
  if (pm && (pi.setupFutureUsage || pi.invoice)) {
    if (!pi.offSession) pm.setUpForOffSession = true;
    if (pi.customer && !pm.customer) attachPaymentMethod(ctx, pm, pi.customer);
  }
  emit(ctx, 'charge.succeeded', ch.id);
  emit(ctx, 'payment_intent.succeeded', pi.id);
  if (pi.invoice) invoicePaymentSucceeded(ctx, pi.invoice, pi);
}

function fail(ctx: Context, pi: PaymentIntentRecord, error: LastError): void {
  const ch = error.type === 'card_error' ? charge(ctx, pi, error) : null;
  pi.status = 'requires_payment_method';
  pi.lastError = error;
  pi.nextAction = null;
  if (ch) {
    pi.latestCharge = ch.id;
    emit(ctx, 'charge.failed', ch.id);
  }
  emit(ctx, 'payment_intent.payment_failed', pi.id);
  if (pi.invoice) invoicePaymentFailed(ctx, pi.invoice, pi);
}

/** The tester passed or failed the 3-D Secure challenge of an intent waiting for it. */
export function completePaymentAuthentication(ctx: Context, pi: PaymentIntentRecord, passed: boolean): void {
  if (pi.status !== 'requires_action') return;
  if (passed) {
    const pm = pi.paymentMethod ? ctx.store.paymentMethods.find(pi.paymentMethod) : undefined;
    // The challenge is the authentication: this one charge goes through even for a card that always asks.
    if (pm) pi.offSession = false;
    succeed(ctx, pi);
    return;
  }
  fail(ctx, pi, {
    type: 'invalid_request_error',
    code: 'payment_intent_authentication_failure',
    declineCode: null,
    message:
      'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
    paymentMethod: pi.paymentMethod,
  });
}

/** Stripe answers a failed confirmation with a 402 card_error that carries the intent. */
export function throwIfFailed(ctx: Context, pi: PaymentIntentRecord): void {
  if (pi.status !== 'requires_payment_method' || !pi.lastError || pi.lastError.type !== 'card_error') return;
  const e = pi.lastError;
  throw new StripeError(402, {
    type: 'card_error',
    code: e.code,
    ...(e.declineCode ? { decline_code: e.declineCode } : {}),
    message: e.message,
    doc_url: `https://stripe.com/docs/error-codes/${e.code.replace(/_/g, '-')}`,
    charge: pi.latestCharge,
    payment_intent: renderPaymentIntent(ctx, pi),
  });
}
