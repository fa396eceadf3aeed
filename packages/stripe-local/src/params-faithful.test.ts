import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from './server.ts';
import { sdkEndpointKnown } from './core/sdk-params.ts';
import SDK_PARAMS from './core/sdk-params.json' with { type: 'json' };
import { startHarness, type Harness } from './testing/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

async function call(method: string, path: string, body: string) {
  const url = `${h.local.url}${path.replace(/:\w+/g, 'x_missing')}`;
  const response = await fetch(method === 'post' ? url : `${url}?${body}`, {
    method: method.toUpperCase(),
    headers: {
      authorization: `Bearer ${h.local.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: method === 'post' ? body : undefined,
  });
  return {
    status: response.status,
    error: ((await response.json()) as { error?: { code?: string; param?: string } }).error,
  };
}

describe('parameters the pinned SDK accepts are honoured or refused as stripe-local', () => {
  it('knows the SDK parameters of every endpoint it implements', () => {
    for (const ep of ENDPOINTS)
      expect(sdkEndpointKnown(`${ep.method} ${ep.path}`), `${ep.method} ${ep.path}`).toBe(true);
  });

  it('never answers parameter_unknown for a parameter the SDK types accept', async () => {
    const wrong: string[] = [];
    let refused = 0;
    for (const ep of ENDPOINTS) {
      const tree = (SDK_PARAMS as Record<string, Record<string, unknown>>)[`${ep.method} ${ep.path}`]!;
      for (const key of Object.keys(tree)) {
        if (key in ep.shape || key === 'expand') continue;
        const { status, error } = await call(ep.method, ep.path, `${key}=x`);
        if (status !== 400 || error?.code !== 'stripe_local_unsupported' || error.param !== key)
          wrong.push(`${ep.method} ${ep.path} ${key}: ${status} ${error?.code}`);
        else refused++;
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(100);
  });

  it('refuses nested SDK parameters it does not implement, and keeps parameter_unknown for the rest', async () => {
    const nested = await call(
      'post',
      '/v1/subscriptions',
      'customer=cus_x&items[0][price]=p&items[0][tax_rates][0]=txr_1',
    );
    expect(nested.error).toMatchObject({ code: 'stripe_local_unsupported', param: 'items[0][tax_rates]' });
    const unknown = await call('post', '/v1/customers', 'not_a_stripe_param=1');
    expect(unknown.error).toMatchObject({ code: 'parameter_unknown', param: 'not_a_stripe_param' });
    // Removed from this API version: the SDK no longer has it either.
    const removed = await call(
      'post',
      '/v1/payment_intents',
      'amount=100&currency=usd&payment_method_types[0]=card',
    );
    expect(removed.error?.code).toBe('parameter_unknown');
  });

  it('honours automatic_payment_methods on setup and payment intents', async () => {
    const customer = await h.stripe.customers.create({});
    const si = await h.stripe.setupIntents.create({
      customer: customer.id,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    expect(si.automatic_payment_methods).toEqual({ enabled: true, allow_redirects: 'never' });
    expect(si.status).toBe('succeeded');
    const pi = await h.stripe.paymentIntents.create({
      amount: 1200,
      currency: 'usd',
      customer: customer.id,
      automatic_payment_methods: { enabled: true },
      payment_method: 'pm_card_visa',
      confirm: true,
    });
    expect(pi.automatic_payment_methods).toEqual({ enabled: true, allow_redirects: 'always' });
    expect(pi.payment_method_types).toEqual(['card']);
    expect(pi.status).toBe('succeeded');
    // Default on this API version: enabled unless payment method types are given.
    const plain = await h.stripe.paymentIntents.create({ amount: 500, currency: 'usd' });
    expect(plain.automatic_payment_methods?.enabled).toBe(true);
    const typed = await h.stripe.paymentIntents.create({
      amount: 500,
      currency: 'usd',
      allowed_payment_method_types: ['card'],
    });
    expect(typed.automatic_payment_methods).toBeNull();
    const both = await call(
      'post',
      '/v1/payment_intents',
      'amount=500&currency=usd&allowed_payment_method_types[0]=card&automatic_payment_methods[enabled]=true',
    );
    expect(both.error?.code).toBe('parameter_invalid');
  });
});
