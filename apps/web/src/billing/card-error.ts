import { MSG } from '@helix/shared';
import { ApiError } from '../api/api-error';

/** The parts of a Stripe.js error (or an intent's last_payment_error) that decide what the buyer reads. */
export interface StripeErrorLike {
  type?: string;
  code?: string;
  decline_code?: string;
  message?: string;
}

/** A failed or cancelled 3-D Secure challenge, by Stripe's codes. */
const AUTHENTICATION_CODES = new Set([
  'payment_intent_authentication_failure',
  'setup_intent_authentication_failure',
  'authentication_required',
]);

/**
 * Plain words for a card failure, shown under the card field. Stripe writes card_error and
 * validation_error messages for the cardholder ("Your card was declined.", "Your card number is
 * invalid."), so those are shown as they are; a failed or cancelled 3-D Secure and every other error
 * type (invalid_request_error, api_error: developer text such as "You cannot confirm this
 * PaymentIntent because ...") get our own sentence.
 */
export function cardErrorText(error: StripeErrorLike | null | undefined): string {
  if (!error) return MSG.cardPaymentFailed;
  if (AUTHENTICATION_CODES.has(error.code ?? '') || AUTHENTICATION_CODES.has(error.decline_code ?? '')) {
    return MSG.cardAuthenticationFailed;
  }
  if ((error.type === 'card_error' || error.type === 'validation_error') && error.message)
    return error.message;
  return MSG.cardPaymentFailed;
}

/** A failure of a payment flow with the words to show the buyer. */
export class PaymentError extends Error {
  override readonly name = 'PaymentError';
}

/** The text for any failure of a payment flow: ours, the server's (its messages are for people), or the default. */
export const paymentErrorText = (error: unknown): string =>
  error instanceof PaymentError || error instanceof ApiError
    ? error.message || MSG.defaultError
    : MSG.defaultError;
