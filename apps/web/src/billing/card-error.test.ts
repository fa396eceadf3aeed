import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { cardErrorText } from './card-error';

describe('cardErrorText', () => {
  it("shows Stripe's cardholder messages as they are", () => {
    expect(
      cardErrorText({ type: 'card_error', code: 'card_declined', message: 'Your card was declined.' }),
    ).toBe('Your card was declined.');
    expect(cardErrorText({ type: 'validation_error', message: 'Your card number is invalid.' })).toBe(
      'Your card number is invalid.',
    );
  });

  it('says in plain words that a 3-D Secure challenge failed or was cancelled', () => {
    const developerText =
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.';
    expect(
      cardErrorText({
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message: developerText,
      }),
    ).toBe(MSG.cardAuthenticationFailed);
    expect(cardErrorText({ type: 'card_error', decline_code: 'authentication_required', message: 'x' })).toBe(
      MSG.cardAuthenticationFailed,
    );
  });

  it("never shows Stripe's developer text", () => {
    expect(
      cardErrorText({
        type: 'invalid_request_error',
        message: "You cannot confirm this PaymentIntent because it's missing a payment method.",
      }),
    ).toBe(MSG.cardPaymentFailed);
    expect(cardErrorText({ type: 'api_connection_error', message: 'We could not connect to Stripe' })).toBe(
      MSG.cardPaymentFailed,
    );
    expect(cardErrorText(undefined)).toBe(MSG.cardPaymentFailed);
  });
});
