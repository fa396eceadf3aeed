import { cardFor, fingerprintOf, luhnValid, TEST_PAYMENT_METHODS, DECLINE_MESSAGES } from '../cards.ts';
import type { Context } from '../core/context.ts';
import { StripeError, resourceMissing } from '../core/errors.ts';
import { emit } from '../core/events.ts';
import { newId } from '../core/ids.ts';
import type { PaymentMethodRecord } from '../core/records.ts';

export const cardError = (code: string, message: string, param?: string, declineCode?: string) =>
  new StripeError(402, {
    type: 'card_error',
    code,
    message,
    ...(param ? { param } : {}),
    ...(declineCode ? { decline_code: declineCode } : {}),
    doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`,
  });

export interface CardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc?: string;
  name?: string | null;
  email?: string | null;
  postalCode?: string | null;
  wallet?: 'apple_pay' | 'google_pay' | null;
}

/** A card PaymentMethod, with Stripe's card_error answers for a wrong number, expiry or CVC. */
export function createCardPaymentMethod(
  ctx: Context,
  card: CardInput,
  metadata: Record<string, string> = {},
) {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number))
    throw cardError('incorrect_number', 'Your card number is incorrect.', 'card[number]');
  if (card.expMonth < 1 || card.expMonth > 12)
    throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", 'card[exp_month]');
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  const now = new Date();
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1))
    throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.", 'card[exp_year]');
  if (card.cvc !== undefined && !/^\d{3,4}$/.test(card.cvc))
    throw cardError('invalid_cvc', "Your card's security code is invalid.", 'card[cvc]');
  const test = cardFor(number);
  return ctx.store.paymentMethods.add({
    id: newId('pm'),
    created: ctx.realNow(),
    customer: null,
    metadata,
    billingDetails: {
      name: card.name ?? null,
      email: card.email ?? null,
      postalCode: card.postalCode ?? null,
    },
    card: {
      brand: test.brand,
      last4: number.slice(-4),
      expMonth: card.expMonth,
      expYear: year,
      funding: test.funding,
      country: 'US',
      fingerprint: fingerprintOf(number),
      behaviour: test.behaviour,
      declineCode: test.declineCode,
      wallet: card.wallet ?? null,
    },
    setUpForOffSession: false,
  });
}

/** A stored PaymentMethod, or a new one for Stripe's test ids such as `pm_card_visa`. */
export function resolvePaymentMethod(
  ctx: Context,
  id: string,
  param = 'payment_method',
): PaymentMethodRecord {
  const testNumber = TEST_PAYMENT_METHODS[id];
  if (testNumber) {
    const year = new Date().getUTCFullYear() + 5;
    return createCardPaymentMethod(ctx, { number: testNumber, expMonth: 12, expYear: year });
  }
  const pm = ctx.store.paymentMethods.find(id);
  if (!pm) throw resourceMissing('PaymentMethod', id, param);
  return pm;
}

/**
 * Attaches a PaymentMethod to a customer. Like Stripe, attaching checks the card: a card declined
 * everywhere (4000 0000 0000 0002) fails here; 0341 and 9995 attach and fail later, on charges.
 */
export function attachPaymentMethod(ctx: Context, pm: PaymentMethodRecord, customerId: string): void {
  const customer = ctx.store.customers.get(customerId, 'customer');
  if (pm.customer === customer.id) return;
  if (pm.customer)
    throw new StripeError(400, {
      type: 'invalid_request_error',
      message: 'The payment method you provided has already been attached to a customer.',
      code: 'payment_method_already_attached',
    });
  if (pm.card.behaviour === 'decline_always') {
    const code = pm.card.declineCode ?? 'generic_decline';
    throw cardError('card_declined', DECLINE_MESSAGES[code] ?? 'Your card was declined.', undefined, code);
  }
  pm.customer = customer.id;
  emit(ctx, 'payment_method.attached', pm.id, { customer: customer.id });
}

export function detachPaymentMethod(ctx: Context, pm: PaymentMethodRecord): void {
  if (!pm.customer)
    throw new StripeError(400, {
      type: 'invalid_request_error',
      message: 'The payment method you provided is not attached to a customer so detachment is impossible.',
      code: 'payment_method_unattached',
    });
  const customer = ctx.store.customers.find(pm.customer);
  if (customer?.defaultPaymentMethod === pm.id) customer.defaultPaymentMethod = null;
  for (const sub of ctx.store.subscriptions.values()) {
    if (sub.defaultPaymentMethod === pm.id) sub.defaultPaymentMethod = null;
  }
  const customerId = pm.customer;
  pm.customer = null;
  emit(ctx, 'payment_method.detached', pm.id, { customer: customerId });
}
