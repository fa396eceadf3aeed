import type { PaymentIntentResult, SetupIntentResult, Stripe, StripeCardElement } from '@stripe/stripe-js';
import { MSG } from '@helix/shared';
import {
  cancelSetupIntent,
  confirmSetupIntent,
  createSetupIntent,
  createTrial,
  startCardCheckout,
  updateSetupIntent,
} from '../api/billing.api';
import { clearLocalStorage } from '../session/local-storage';
import { LOCAL } from '../session/storage-keys';
import { cardErrorText, PaymentError, type StripeErrorLike } from './card-error';

/** The card typed into the card element, or a payment method the wallet sheet produced. */
export type PaymentSource = { card: StripeCardElement } | { paymentMethodId: string };

export interface PaymentOrder {
  planId: number;
  /** Seats on a dynamic-quantity plan. */
  quantity?: number;
}

export { paymentErrorText } from './card-error';

/** A Stripe.js failure in the buyer's words (a failed 3-D Secure never shows Stripe's developer text). */
const providerFailure = (result: { error?: StripeErrorLike }): PaymentError =>
  new PaymentError(cardErrorText(result.error));

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

const safely = (run: () => void) => {
  try {
    run();
  } catch {
    // Storage may be unavailable; the flow does not depend on it.
  }
};

/** Local storage `setup-intent` (accounts 3): the intent in flight, so a failure can cancel it. */
const rememberSetupIntent = (id: string) => safely(() => localStorage.setItem(LOCAL.setupIntent, id));
const forgetSetupIntent = () => safely(() => localStorage.removeItem(LOCAL.setupIntent));

/**
 * The trial flow (accounts 4): create the setup intent, attach and confirm the card (Stripe.js for a
 * typed card, which also runs 3-D Secure; the update and confirm calls for a wallet's payment method),
 * then create the trial subscription, which must be trialing. On any failure the setup intent is
 * cancelled and local storage cleared before the error goes back to the form.
 */
export async function startTrial(
  stripe: Stripe,
  source: PaymentSource,
  order: PaymentOrder,
  guest: boolean,
): Promise<void> {
  let intentId: string | null = null;
  try {
    const intent = await createSetupIntent();
    intentId = intent.id;
    rememberSetupIntent(intent.id);
    const paymentId = await confirmSetup(stripe, source, intent);
    const subscription = await createTrial(
      {
        planId: order.planId,
        quantity: order.quantity,
        paymentId,
        updateCustomer: true,
        attachPaymentMethod: true,
        createCustomer: guest,
      },
      guest,
    );
    if (subscription.status !== 'trialing') throw new PaymentError(MSG.defaultError);
    forgetSetupIntent();
  } catch (error) {
    if (intentId) await cancelSetupIntent(intentId).catch(() => undefined);
    clearLocalStorage();
    throw error;
  }
}

async function confirmSetup(
  stripe: Stripe,
  source: PaymentSource,
  intent: { id: string; client_secret: string | null },
): Promise<string> {
  if (!intent.client_secret) throw new PaymentError(MSG.defaultError);
  if ('card' in source) {
    const result: SetupIntentResult = await stripe.confirmCardSetup(intent.client_secret, {
      payment_method: { card: source.card },
    });
    if (result.error) throw providerFailure(result);
    const paymentId = idOf(result.setupIntent.payment_method);
    if (!paymentId || result.setupIntent.status !== 'succeeded') throw new PaymentError(MSG.defaultError);
    return paymentId;
  }
  const paymentId = source.paymentMethodId;
  await updateSetupIntent({ setup_intent: intent.id, payment_method_id: paymentId });
  const confirmed = await confirmSetupIntent({ setup_intent: intent.id, payment_method_id: paymentId });
  if (confirmed.status === 'requires_action') {
    // The bank asks the cardholder to authenticate (3-D Secure): Stripe.js shows the challenge.
    const result = await stripe.confirmCardSetup(intent.client_secret);
    if (result.error) throw providerFailure(result);
  } else if (confirmed.status !== 'succeeded') {
    throw new PaymentError(MSG.defaultError);
  }
  return paymentId;
}

/** Payment intent states in which the first invoice still waits for the card. */
const PAYABLE = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action']);

/**
 * The card checkout once the trial has passed (accounts 4): the server cancels any old subscription,
 * creates the incomplete one and answers its first invoice's payment intent; the browser confirms it,
 * and confirms again when the bank asks for further action (3-D Secure).
 */
export async function payByCard(stripe: Stripe, source: PaymentSource, order: PaymentOrder): Promise<void> {
  const checkout = await startCardCheckout({ planId: order.planId, quantity: order.quantity });
  const intent = checkout.paymentIntent;
  if (!intent.client_secret || !PAYABLE.has(intent.status)) throw new PaymentError(MSG.defaultError);
  const secret = intent.client_secret;
  let result: PaymentIntentResult = await stripe.confirmCardPayment(secret, {
    payment_method: 'card' in source ? { card: source.card } : source.paymentMethodId,
  });
  if (result.error) throw providerFailure(result);
  if (result.paymentIntent.status === 'requires_action') {
    result = await stripe.confirmCardPayment(secret);
    if (result.error) throw providerFailure(result);
  }
  if (result.paymentIntent.status !== 'succeeded') throw new PaymentError(MSG.defaultError);
  clearLocalStorage();
}
