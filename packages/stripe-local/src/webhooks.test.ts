import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signatureHeader } from './core/webhooks.ts';
import { startHarness, type Harness } from './testing/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe('webhooks', () => {
  it('signs deliveries so that stripe.webhooks.constructEvent accepts them, and not with another secret', () => {
    const verifier = new Stripe('sk_test_unused');
    const payload = JSON.stringify({ id: 'evt_1', object: 'event' });
    const header = signatureHeader(payload, 'whsec_abc');
    expect(verifier.webhooks.constructEvent(payload, header, 'whsec_abc').id).toBe('evt_1');
    expect(() => verifier.webhooks.constructEvent(payload, header, 'whsec_other')).toThrow();
  });

  it('delivers events with the object and the pinned API version, listed by /v1/events', async () => {
    const customer = await h.stripe.customers.create({ email: 'w@example.com' });
    const [event] = await h.receiver.waitFor((events) =>
      events.some(
        (e) => e.type === 'customer.created' && (e.data.object as Stripe.Customer).id === customer.id,
      ),
    );
    const delivered = h.receiver.events.find(
      (e) => e.type === 'customer.created' && (e.data.object as Stripe.Customer).id === customer.id,
    )!;
    expect(event).toBeDefined();
    expect(delivered.api_version).toBe('2026-10-28.endive');
    expect((await h.stripe.events.retrieve(delivered.id)).type).toBe('customer.created');
    const listed = await h.stripe.events.list({ type: 'customer.created' });
    expect(listed.data.map((e) => e.id)).toContain(delivered.id);
  });

  it('retries a delivery answered 500 until it is accepted', async () => {
    h.receiver.failNext.push(500, 500);
    const customer = await h.stripe.customers.create({ email: 'retry@example.com' });
    await h.receiver.waitFor((events) =>
      events.some((e) => (e.data.object as Stripe.Customer).id === customer.id),
    );
    const event = h.receiver.events.find((e) => (e.data.object as Stripe.Customer).id === customer.id)!;
    const attempts = h.receiver.attempts.filter((a) => a.id === event.id).map((a) => a.status);
    expect(attempts).toEqual([500, 500, 200]);
  });

  it('manages endpoints through /v1/webhook_endpoints; creation answers the secret', async () => {
    const endpoint = await h.stripe.webhookEndpoints.create({
      url: 'http://127.0.0.1:9/none',
      enabled_events: ['invoice.paid'],
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const list = await h.stripe.webhookEndpoints.list();
    expect(list.data.map((w) => w.id)).toContain(endpoint.id);
    expect(list.data.find((w) => w.id === endpoint.id)?.secret).toBeUndefined();
    await h.stripe.webhookEndpoints.del(endpoint.id);
    expect((await h.stripe.webhookEndpoints.list()).data.map((w) => w.id)).not.toContain(endpoint.id);
  });

  it('counts a delivery that times out as failed and retries it', async () => {
    const { startStripeLocal } = await import('./index.ts');
    const { createServer } = await import('node:http');
    let calls = 0;
    const slow = createServer((_req, res) => {
      calls += 1;
      if (calls === 1) setTimeout(() => res.writeHead(200).end(), 500);
      else res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const port = (slow.address() as { port: number }).port;
    const local = await startStripeLocal({
      port: 0,
      webhooks: [{ url: `http://127.0.0.1:${port}/hook` }],
      webhookTimeoutMs: 100,
      webhookRetryDelaysMs: [10],
    });
    try {
      const stripe = new Stripe(local.secretKey, { ...local.sdkOptions, maxNetworkRetries: 0 });
      await stripe.customers.create({});
      await local.webhooks.idle();
      expect(local.webhooks.log.map((a) => [a.attempt, a.status])).toEqual([
        [1, null],
        [2, 200],
      ]);
    } finally {
      await local.stop();
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
