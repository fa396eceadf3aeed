import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './testing/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

/** What a $10 on-session payment with the test PaymentMethod does: succeeded, requires_action or a decline. */
async function pay(paymentMethod: string): Promise<string> {
  const customer = await h.stripe.customers.create({});
  try {
    const pi = await h.stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      customer: customer.id,
      payment_method: paymentMethod,
      confirm: true,
    });
    return pi.status;
  } catch (error) {
    const e = error as Stripe.errors.StripeError;
    return `${e.code}/${e.decline_code}`;
  }
}

describe("Stripe's documented test PaymentMethod ids", () => {
  it.each([
    ['pm_card_visa', 'succeeded'],
    ['pm_card_mastercard_debit', 'succeeded'],
    ['pm_card_discover', 'succeeded'],
    ['pm_card_visa_chargeDeclined', 'card_declined/generic_decline'],
    ['pm_card_visa_chargeDeclinedInsufficientFunds', 'card_declined/insufficient_funds'],
    ['pm_card_visa_chargeDeclinedLostCard', 'card_declined/lost_card'],
    ['pm_card_visa_chargeDeclinedStolenCard', 'card_declined/stolen_card'],
    ['pm_card_visa_chargeDeclinedFraudulent', 'card_declined/fraudulent'],
    ['pm_card_chargeCustomerFail', 'card_declined/generic_decline'],
    ['pm_card_authenticationRequired', 'requires_action'],
    ['pm_card_threeDSecure2Required', 'requires_action'],
    ['pm_card_authenticationRequiredOnSetup', 'requires_action'],
    // Aliases kept from before.
    ['pm_card_chargeDeclined', 'card_declined/generic_decline'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'card_declined/insufficient_funds'],
  ])('%s: %s', async (pm, outcome) => {
    expect(await pay(pm)).toBe(outcome);
  });

  it('gives each use a new PaymentMethod with the documented card', async () => {
    const customer = await h.stripe.customers.create({});
    const a = await h.stripe.paymentMethods.attach('pm_card_chargeCustomerFail', { customer: customer.id });
    const b = await h.stripe.paymentMethods.attach('pm_card_chargeCustomerFail', { customer: customer.id });
    expect(a.id).not.toBe(b.id);
    expect(a.card?.last4).toBe('0341');
    expect((await h.stripe.paymentMethods.retrieve('pm_card_threeDSecure2Required')).card?.last4).toBe(
      '3220',
    );
  });
});
