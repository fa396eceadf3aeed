import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { STRIPE_API_VERSION } from '@helix/server/billing/stripe-client';
import { spawnStripeLocal, type StripeLocalProcess } from '@helix/stripe-local/testing/child-process';

/**
 * stripe-local SIGKILLed between calls (issue 16; issue 15 made it durable): a child process keeping its
 * state in a snapshot + fsynced journal, driven through the `stripe` SDK as Helix drives it (customers,
 * cards, subscriptions, updates, cancels), killed at a random point between two calls ten times.
 * After each restart every object it answered is there with what it answered; every customer's
 * `customer.created` webhook arrives (at least once: events not yet delivered at the kill are sent after
 * the restart).
 */
const KILLS = 10;
const CALLS_PER_ROUND = 16;
const WEBHOOK_SECRET = 'whsec_fault_stripe_local_kill_0000000000';

interface Answered {
  customer: string;
  note?: string;
  subscription?: string;
  status?: string;
}

const dir = mkdtempSync(path.join(tmpdir(), 'helix-fault-stripe-'));
let current: StripeLocalProcess | undefined;
let receiver: Server | undefined;

afterAll(async () => {
  await current?.kill();
  await new Promise((r) => (receiver ? receiver.close(r) : r(undefined)));
  rmSync(dir, { recursive: true, force: true });
});

async function startReceiver(delivered: Map<string, number>): Promise<string> {
  const verifier = new Stripe('sk_test_unused');
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const event = verifier.webhooks.constructEvent(
          Buffer.concat(chunks).toString('utf8'),
          String(req.headers['stripe-signature']),
          WEBHOOK_SECRET,
        );
        if (event.type === 'customer.created') {
          const id = (event.data.object as Stripe.Customer).id;
          delivered.set(id, (delivered.get(id) ?? 0) + 1);
        }
        res.writeHead(200).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
}

describe('stripe-local killed between calls', () => {
  it('loses nothing it answered and still delivers its events', async () => {
    const delivered = new Map<string, number>();
    const webhookUrl = await startReceiver(delivered);
    const file = path.join(dir, 'stripe-local.json');
    const env = { STRIPE_LOCAL_WEBHOOK_URL: webhookUrl, STRIPE_LOCAL_WEBHOOK_SECRET: WEBHOOK_SECRET };
    const spawn = (port = 0) => spawnStripeLocal({ snapshotFile: file, port, env });
    const sdk = (p: StripeLocalProcess) =>
      new Stripe(p.secretKey, {
        apiVersion: STRIPE_API_VERSION,
        host: '127.0.0.1',
        port: p.port,
        protocol: 'http',
        maxNetworkRetries: 0,
      });

    current = await spawn();
    let stripe = sdk(current);
    const product = await stripe.products.create({ name: 'Fault plan' });
    const price = await stripe.prices.create({
      product: product.id,
      unit_amount: 1200,
      currency: 'usd',
      recurring: { interval: 'month' },
    });

    const answered: Answered[] = [];
    const restartMs: number[] = [];
    let calls = 2;
    let lost = 0;
    // One step is one SDK call; the objects it answered are recorded before the next step.
    const steps: ((s: Stripe) => Promise<void>)[] = [
      async (s) => {
        const c = await s.customers.create({ email: `f${answered.length}@example.com` });
        answered.push({ customer: c.id });
      },
      async (s) => {
        const a = answered.at(-1)!;
        const pm = await s.paymentMethods.attach('pm_card_visa', { customer: a.customer });
        await s.customers.update(a.customer, { invoice_settings: { default_payment_method: pm.id } });
      },
      async (s) => {
        const a = answered.at(-1)!;
        const sub = await s.subscriptions.create({ customer: a.customer, items: [{ price: price.id }] });
        a.subscription = sub.id;
        a.status = sub.status;
      },
      async (s) => {
        const a = answered.at(-1)!;
        const note = `n${calls}`;
        await s.customers.update(a.customer, { metadata: { note } });
        a.note = note;
      },
    ];

    for (let kill = 0; kill < KILLS; kill++) {
      // A random point between two calls (always after a whole customer's step, or inside its steps).
      const callsThisRound = CALLS_PER_ROUND - 3 + Math.floor(Math.random() * 6);
      for (let i = 0; i < callsThisRound; i++) {
        await steps[i % steps.length]!(stripe);
        calls++;
        if (i % 8 === 7 && answered.at(-1)?.subscription) {
          const a = answered.at(-1)!;
          a.status = (await stripe.subscriptions.cancel(a.subscription!)).status;
          calls++;
        }
      }
      await current.kill();
      current = await spawn(current.port);
      restartMs.push(current.startMs);
      stripe = sdk(current);
      for (const a of answered) {
        const customer = (await stripe.customers.retrieve(a.customer).catch(() => undefined)) as
          Stripe.Customer | undefined;
        const sub = a.subscription
          ? await stripe.subscriptions.retrieve(a.subscription).catch(() => undefined)
          : undefined;
        const ok =
          customer?.id === a.customer &&
          (a.note === undefined || customer.metadata.note === a.note) &&
          (a.subscription === undefined || sub?.status === a.status);
        if (!ok) lost++;
      }
    }

    // Every customer's creation reaches the webhook receiver, also those killed before delivery.
    const until = Date.now() + 30_000;
    while (answered.some((a) => !delivered.has(a.customer)) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    const undelivered = answered.filter((a) => !delivered.has(a.customer)).length;
    const duplicates = [...delivered.values()].reduce((sum, n) => sum + n - 1, 0);
    const sorted = [...restartMs].sort((a, b) => a - b);

    console.log('stripe-local killed between calls (SIGKILL, restart, check every answered object)');
    console.table({
      calls,
      kills: KILLS,
      'objects checked per restart (last)': answered.length * 2,
      lost,
      'restart ms (median)': sorted[Math.floor(sorted.length / 2)],
      'restart ms (max)': sorted.at(-1),
      'customer.created undelivered': undelivered,
      'customer.created delivered twice': duplicates,
    });

    expect(lost).toBe(0);
    expect(undelivered).toBe(0);
  });
});
