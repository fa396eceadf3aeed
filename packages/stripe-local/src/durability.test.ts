import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeLocal } from './index.ts';
import { spawnStripeLocal, type StripeLocalProcess } from './testing/child-process.ts';

let dir: string;
const running: StripeLocalProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'stripe-local-durable-'));
});
afterAll(async () => {
  for (const p of running) await p.kill();
  rmSync(dir, { recursive: true, force: true });
});

async function spawnAt(file: string, port = 0, env: Record<string, string> = {}) {
  const p = await spawnStripeLocal({ snapshotFile: file, port, env });
  running.push(p);
  return p;
}

describe('a SIGKILLed stripe-local loses nothing it answered', () => {
  it('between calls: customers, cards, subscriptions and their changes are all there after each kill', async () => {
    const file = path.join(dir, 'between.json');
    let p = await spawnAt(file);
    const product = await p.stripe.products.create({ name: 'Plan' });
    const price = await p.stripe.prices.create({
      product: product.id,
      unit_amount: 1200,
      currency: 'usd',
      recurring: { interval: 'month' },
    });
    const answered: { customer: string; subscription: string; cancelled: boolean; note: string }[] = [];
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 3; i++) {
        const customer = await p.stripe.customers.create({ email: `r${round}i${i}@example.com` });
        const pm = await p.stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
        const sub = await p.stripe.subscriptions.create({
          customer: customer.id,
          items: [{ price: price.id }],
          default_payment_method: pm.id,
        });
        const note = `round ${round}`;
        await p.stripe.customers.update(customer.id, { metadata: { note } });
        const cancelled = i === 2;
        if (cancelled) await p.stripe.subscriptions.cancel(sub.id);
        answered.push({ customer: customer.id, subscription: sub.id, cancelled, note });
      }
      // Killed right after the last answer: no time for any background write.
      await p.kill();
      p = await spawnAt(file, p.port);
      for (const a of answered) {
        const customer = await p.stripe.customers.retrieve(a.customer);
        expect((customer as Stripe.Customer).metadata.note).toBe(a.note);
        const sub = await p.stripe.subscriptions.retrieve(a.subscription);
        expect(sub.status).toBe(a.cancelled ? 'canceled' : 'active');
      }
    }
    // Invoice numbers keep counting: a new one never repeats an old one.
    const numbers = (await p.stripe.invoices.list({ limit: 100 })).data.map((i) => i.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    await p.kill();
  });

  it('during calls: every create answered before the kill is there after the restart', async () => {
    const file = path.join(dir, 'during.json');
    let p = await spawnAt(file);
    const answered: string[] = [];
    let killing: Promise<void> | undefined;
    const calls = Array.from({ length: 60 }, (_, i) =>
      p.stripe.customers.create({ name: `c${i}` }).then(
        (c) => {
          answered.push(c.id);
          // Kill while the rest are still in flight.
          if (answered.length === 15) killing = p.kill();
        },
        () => undefined,
      ),
    );
    await Promise.all(calls);
    await killing;
    expect(answered.length).toBeGreaterThanOrEqual(15);
    p = await spawnAt(file, p.port);
    for (const id of answered) expect((await p.stripe.customers.retrieve(id)).id).toBe(id);
    await p.kill();
  });

  it('replays an idempotent request after a kill instead of acting twice', async () => {
    const file = path.join(dir, 'idempotent.json');
    let p = await spawnAt(file);
    const first = await p.stripe.customers.create({ name: 'Once' }, { idempotencyKey: 'key-1' });
    await p.kill();
    p = await spawnAt(file, p.port);
    const again = await p.stripe.customers.create({ name: 'Once' }, { idempotencyKey: 'key-1' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect((await p.stripe.customers.list({ limit: 100 })).data).toHaveLength(1);
    await p.kill();
  });

  it('compacts a long journal, and ignores a torn last line', async () => {
    const file = path.join(dir, 'compact.json');
    let p = await spawnAt(file, 0, { STRIPE_LOCAL_JOURNAL_COMPACT_BYTES: '4000' });
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await p.stripe.customers.create({ name: `n${i}` })).id);
    await p.kill();
    // A write cut short by the kill (never fsynced, so never answered).
    appendFileSync(`${file}.journal`, '{"t":"customers","r":{"id":"cus_tor');
    p = await spawnAt(file, p.port);
    const listed = (await p.stripe.customers.list({ limit: 100 })).data.map((c) => c.id);
    expect(listed.sort()).toEqual([...ids].sort());
    await p.kill();
  });

  it('shares one fsync between concurrent requests (group commit)', async () => {
    const local = await startStripeLocal({ port: 0, snapshotFile: path.join(dir, 'group.json') });
    try {
      const stripe = new Stripe(local.secretKey, { ...local.sdkOptions, maxNetworkRetries: 0 });
      const before = local.journal!.stats.fsyncs;
      await Promise.all(Array.from({ length: 50 }, (_, i) => stripe.customers.create({ name: `g${i}` })));
      const fsyncs = local.journal!.stats.fsyncs - before;
      expect(fsyncs).toBeGreaterThan(0);
      expect(fsyncs).toBeLessThan(50);
    } finally {
      await local.stop();
    }
  });
});
