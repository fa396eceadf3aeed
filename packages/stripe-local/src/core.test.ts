import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './testing/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

const stripeError = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error('expected a Stripe error');
};

describe('stripe-local core API through the real SDK', () => {
  it('creates, retrieves and updates a customer', async () => {
    const customer = await h.stripe.customers.create({
      email: 'a@example.com',
      name: 'Ada',
      metadata: { tenant: 't1' },
    });
    expect(customer.id).toMatch(/^cus_/);
    expect(customer.object).toBe('customer');
    const updated = await h.stripe.customers.update(customer.id, {
      name: 'Ada L',
      metadata: { tenant: '', plan: 'x' },
    });
    expect(updated.name).toBe('Ada L');
    expect(updated.metadata).toEqual({ plan: 'x' });
    expect((await h.stripe.customers.retrieve(customer.id)).id).toBe(customer.id);
  });

  it('rejects an unknown parameter and a missing one with Stripe error shapes', async () => {
    const unknown = await stripeError(
      h.stripe.customers.create({ emial: 'x' } as Stripe.CustomerCreateParams),
    );
    expect(unknown.type).toBe('StripeInvalidRequestError');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.code).toBe('parameter_unknown');
    expect(unknown.param).toBe('emial');
    expect(unknown.message).toBe('Received unknown parameter: emial');

    const nested = await stripeError(
      h.stripe.prices.create({
        currency: 'usd',
        unit_amount: 100,
        product_data: { name: 'x', colour: 'red' },
      } as unknown as Stripe.PriceCreateParams),
    );
    expect(nested.param).toBe('product_data[colour]');

    const missing = await stripeError(h.stripe.subscriptions.create({} as Stripe.SubscriptionCreateParams));
    expect(missing.code).toBe('parameter_missing');
    expect(missing.param).toBe('customer');
  });

  it('answers 404 resource_missing for an unknown id and 401 without a valid key', async () => {
    const missing = await stripeError(h.stripe.customers.retrieve('cus_nope'));
    expect(missing.statusCode).toBe(404);
    expect(missing.code).toBe('resource_missing');
    const bad = new Stripe('sk_test_wrong', { ...h.local.sdkOptions, maxNetworkRetries: 0 });
    const auth = await stripeError(bad.customers.list());
    expect(auth.statusCode).toBe(401);
    const pk = await stripeError(h.publishable.customers.list());
    expect(pk.statusCode).toBe(401);
  });

  it('replays an idempotent request and refuses the key with other parameters', async () => {
    const key = `idem-${Date.now()}`;
    const a = await h.stripe.customers.create({ email: 'i@example.com' }, { idempotencyKey: key });
    const b = await h.stripe.customers.create({ email: 'i@example.com' }, { idempotencyKey: key });
    expect(b.id).toBe(a.id);
    expect(b.lastResponse.headers['idempotent-replayed']).toBe('true');
    const other = await stripeError(
      h.stripe.customers.create({ email: 'other@example.com' }, { idempotencyKey: key }),
    );
    expect(other.type).toBe('StripeIdempotencyError');
  });

  it('creates products and prices (flat and graduated tiers), finds them by lookup key, moves a key', async () => {
    const product = await h.stripe.products.create({ name: 'Educator Monthly' });
    const price = await h.stripe.prices.create({
      product: product.id,
      currency: 'usd',
      recurring: { interval: 'month' },
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      tiers: [
        { up_to: 10, flat_amount: 9900 },
        { up_to: 'inf', unit_amount: 900 },
      ],
      lookup_key: 'educator_monthly_test',
    });
    expect(price.tiers_mode).toBe('graduated');
    expect(price.unit_amount).toBeNull();
    const again = await stripeError(
      h.stripe.prices.create({
        product: product.id,
        currency: 'usd',
        unit_amount: 5,
        lookup_key: 'educator_monthly_test',
      }),
    );
    expect(again.param).toBe('lookup_key');
    const moved = await h.stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 1200,
      recurring: { interval: 'month' },
      lookup_key: 'educator_monthly_test',
      transfer_lookup_key: true,
    });
    const found = await h.stripe.prices.list({ lookup_keys: ['educator_monthly_test'], active: true });
    expect(found.data.map((p) => p.id)).toEqual([moved.id]);
    const coupon = await h.stripe.coupons.create({
      id: 'helix_free_test',
      percent_off: 100,
      duration: 'forever',
    });
    expect((await h.stripe.coupons.retrieve(coupon.id)).percent_off).toBe(100);
  });

  it('creates a card PaymentMethod with the publishable key and rejects a bad number', async () => {
    const pm = await h.publishable.paymentMethods.create({
      type: 'card',
      card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' },
    });
    expect(pm.card?.last4).toBe('4242');
    const bad = await stripeError(
      h.publishable.paymentMethods.create({
        type: 'card',
        card: { number: '4242424242424241', exp_month: 12, exp_year: 2040 },
      }),
    );
    expect(bad.type).toBe('StripeCardError');
    expect(bad.code).toBe('incorrect_number');
  });

  it('expands ids and includable fields, and refuses an unexpandable path', async () => {
    const customer = await h.stripe.customers.create({
      email: 'x@example.com',
      payment_method: 'pm_card_visa',
    });
    const pms = await h.stripe.paymentMethods.list({
      customer: customer.id,
      type: 'card',
      expand: ['data.customer'],
    });
    expect((pms.data[0]!.customer as Stripe.Customer).email).toBe('x@example.com');
    const product = await h.stripe.products.create({ id: 'helix_views_test', name: 'Views' });
    const price = await h.stripe.prices.create({
      product: product.id,
      currency: 'usd',
      unit_amount: 500,
      expand: ['product'],
    });
    expect((price.product as Stripe.Product).name).toBe('Views');
    await h.receiver.waitFor((events) =>
      events.some((e) => e.type === 'product.created' && (e.data.object as Stripe.Product).id === product.id),
    );
    const bad = await stripeError(h.stripe.customers.retrieve(customer.id, { expand: ['email'] }));
    expect(bad.param).toBe('expand');
  });
});

describe('snapshot', () => {
  it('keeps customers and subscriptions across a restart when given a snapshot file', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { startStripeLocal } = await import('./index.ts');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'stripe-local-'));
    const file = path.join(dir, 'state.json');
    try {
      const first = await startStripeLocal({ port: 0, snapshotFile: file });
      const a = new Stripe(first.secretKey, { ...first.sdkOptions, maxNetworkRetries: 0 });
      const customer = await a.customers.create({
        email: 'keep@example.com',
        payment_method: 'pm_card_visa',
      });
      const price = await a.prices.create({
        currency: 'usd',
        unit_amount: 500,
        recurring: { interval: 'month' },
        product_data: { name: 'P' },
      });
      const sub = await a.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id }],
        trial_period_days: 5,
      });
      await first.stop();
      const second = await startStripeLocal({ port: 0, snapshotFile: file });
      const b = new Stripe(second.secretKey, { ...second.sdkOptions, maxNetworkRetries: 0 });
      expect((await b.subscriptions.retrieve(sub.id)).status).toBe('trialing');
      expect((await b.customers.retrieve(customer.id)).id).toBe(customer.id);
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
