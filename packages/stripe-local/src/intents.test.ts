import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate, startHarness, type Harness } from './testing/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const card = (number: string) => ({
  type: 'card' as const,
  card: { number, exp_month: 12, exp_year: 2040, cvc: '123' },
});

const stripeError = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error('expected a Stripe error');
};

describe('setup intents', () => {
  it('sets up 4242 with a publishable key and client secret, attaching it to the customer', async () => {
    const customer = await h.stripe.customers.create({ email: 's@example.com' });
    const si = await h.stripe.setupIntents.create({
      customer: customer.id,
      allowed_payment_method_types: ['card'],
      usage: 'off_session',
    });
    expect(si.status).toBe('requires_payment_method');
    const pm = await h.publishable.paymentMethods.create(card('4242424242424242'));
    const confirmed = await h.publishable.setupIntents.confirm(si.id, {
      payment_method: pm.id,
      client_secret: si.client_secret!,
    } as Stripe.SetupIntentConfirmParams);
    expect(confirmed.status).toBe('succeeded');
    expect((await h.stripe.paymentMethods.retrieve(pm.id)).customer).toBe(customer.id);
    await h.receiver.waitFor((events) =>
      events.some(
        (e) => e.type === 'setup_intent.succeeded' && (e.data.object as Stripe.SetupIntent).id === si.id,
      ),
    );
    const wrong = await stripeError(
      h.publishable.setupIntents.retrieve(si.id, { client_secret: 'seti_x_secret_y' }),
    );
    expect(wrong.statusCode).toBe(404);
  });

  it('asks for 3-D Secure with 3155 and succeeds or fails with the challenge', async () => {
    const customer = await h.stripe.customers.create({});
    for (const pass of [true, false]) {
      const si = await h.stripe.setupIntents.create({ customer: customer.id });
      const pm = await h.publishable.paymentMethods.create(card('4000002500003155'));
      const pending = await h.stripe.setupIntents.confirm(si.id, { payment_method: pm.id });
      expect(pending.status).toBe('requires_action');
      expect(pending.next_action?.type).toBe('use_stripe_sdk');
      await authenticate(h.local, pending, pass);
      const after = await h.stripe.setupIntents.retrieve(si.id);
      expect(after.status).toBe(pass ? 'succeeded' : 'requires_payment_method');
      if (!pass) expect(after.last_setup_error?.code).toBe('setup_intent_authentication_failure');
    }
  });

  it('declines 0002 at set-up with card_declined; 9995 and 0341 set up fine', async () => {
    const customer = await h.stripe.customers.create({});
    const si = await h.stripe.setupIntents.create({ customer: customer.id });
    const declined = await stripeError(
      h.stripe.setupIntents.confirm(si.id, { payment_method: 'pm_card_chargeDeclined' }),
    );
    expect(declined.type).toBe('StripeCardError');
    expect(declined.code).toBe('card_declined');
    expect(declined.decline_code).toBe('generic_decline');
    for (const pm of ['pm_card_chargeDeclinedInsufficientFunds', 'pm_card_chargeCustomerFail']) {
      const ok = await h.stripe.setupIntents.create({
        customer: customer.id,
        payment_method: pm,
        confirm: true,
      });
      expect(ok.status).toBe('succeeded');
    }
    const canceled = await h.stripe.setupIntents.cancel((await h.stripe.setupIntents.create({})).id);
    expect(canceled.status).toBe('canceled');
  });
});

describe('payment intents', () => {
  it('charges 4242, declines 9995 with insufficient_funds and leaves the intent retryable', async () => {
    const customer = await h.stripe.customers.create({});
    const ok = await h.stripe.paymentIntents.create({
      amount: 500,
      currency: 'usd',
      customer: customer.id,
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    expect(ok.status).toBe('succeeded');
    expect(ok.amount_received).toBe(500);

    const pi = await h.stripe.paymentIntents.create({ amount: 500, currency: 'usd', customer: customer.id });
    const pm = await h.publishable.paymentMethods.create(card('4000000000009995'));
    const error = await stripeError(
      h.publishable.paymentIntents.confirm(pi.id, {
        payment_method: pm.id,
        client_secret: pi.client_secret!,
      } as Stripe.PaymentIntentConfirmParams),
    );
    expect(error.statusCode).toBe(402);
    expect(error.code).toBe('card_declined');
    expect(error.decline_code).toBe('insufficient_funds');
    expect(error.message).toBe('Your card has insufficient funds.');
    const after = await h.stripe.paymentIntents.retrieve(pi.id);
    expect(after.status).toBe('requires_payment_method');
    expect(after.last_payment_error?.decline_code).toBe('insufficient_funds');
    const retried = await h.stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' });
    expect(retried.status).toBe('succeeded');
  });

  it('asks 3155 for 3-D Secure on-session and charges after the challenge', async () => {
    const pi = await h.stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_authenticationRequiredOnSetup',
      confirm: true,
    });
    expect(pi.status).toBe('requires_action');
    await authenticate(h.local, pi, true);
    expect((await h.stripe.paymentIntents.retrieve(pi.id)).status).toBe('succeeded');
    await h.receiver.waitFor((events) =>
      events.some(
        (e) => e.type === 'payment_intent.succeeded' && (e.data.object as Stripe.PaymentIntent).id === pi.id,
      ),
    );

    const failed = await h.stripe.paymentIntents.create({
      amount: 1000,
      currency: 'usd',
      payment_method: 'pm_card_authenticationRequiredOnSetup',
      confirm: true,
    });
    await authenticate(h.local, failed, false);
    const after = await h.stripe.paymentIntents.retrieve(failed.id);
    expect(after.status).toBe('requires_payment_method');
    expect(after.last_payment_error?.code).toBe('payment_intent_authentication_failure');
  });

  it('attaches 0341 and declines every charge', async () => {
    const customer = await h.stripe.customers.create({});
    const pm = await h.stripe.paymentMethods.attach('pm_card_chargeCustomerFail', { customer: customer.id });
    expect(pm.customer).toBe(customer.id);
    const error = await stripeError(
      h.stripe.paymentIntents.create({
        amount: 700,
        currency: 'usd',
        customer: customer.id,
        payment_method: pm.id,
        confirm: true,
        off_session: true,
      }),
    );
    expect(error.code).toBe('card_declined');
    const list = await h.stripe.paymentMethods.list({ customer: customer.id, type: 'card' });
    expect(list.data.map((p) => p.id)).toEqual([pm.id]);
    await h.stripe.paymentMethods.detach(pm.id);
    expect((await h.stripe.paymentMethods.list({ customer: customer.id, type: 'card' })).data).toEqual([]);
  });
});
