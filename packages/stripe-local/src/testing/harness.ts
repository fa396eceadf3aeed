import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { startStripeLocal, type StripeLocal, type StripeLocalOptions } from '../index.ts';

export interface Receiver {
  url: string;
  /** Events whose signature `stripe.webhooks.constructEvent` accepted, in arrival order. */
  events: Stripe.Event[];
  /** Every delivery attempt, with the status answered. */
  attempts: { id: string; status: number }[];
  /** Answer these statuses to the next deliveries (then 200). */
  failNext: number[];
  waitFor(predicate: (events: Stripe.Event[]) => boolean, timeoutMs?: number): Promise<Stripe.Event[]>;
  close(): Promise<void>;
}

/** A webhook endpoint that verifies signatures with the real SDK, as the API does. */
export async function startReceiver(secret: () => string): Promise<Receiver> {
  const events: Stripe.Event[] = [];
  const attempts: { id: string; status: number }[] = [];
  const failNext: number[] = [];
  const verifier = new Stripe('sk_test_unused');
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let status = failNext.shift() ?? 200;
      let id = '';
      try {
        const event = verifier.webhooks.constructEvent(
          body,
          String(req.headers['stripe-signature']),
          secret(),
        );
        id = event.id;
        if (status === 200) events.push(event);
      } catch {
        status = 400;
      }
      attempts.push({ id, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  return {
    url,
    events,
    attempts,
    failNext,
    async waitFor(predicate, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate(events)) {
        if (Date.now() > until)
          throw new Error(`timed out waiting for webhooks; got: ${events.map((e) => e.type).join(', ')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return events;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface Harness {
  local: StripeLocal;
  stripe: Stripe;
  /** The SDK with the publishable key, as Stripe.js would call. */
  publishable: Stripe;
  receiver: Receiver;
  stop(): Promise<void>;
}

export async function startHarness(options: StripeLocalOptions = {}): Promise<Harness> {
  let secret = '';
  const receiver = await startReceiver(() => secret);
  const local = await startStripeLocal({
    port: 0,
    webhooks: [{ url: receiver.url }],
    webhookRetryDelaysMs: [20, 40, 80],
    ...options,
  });
  secret = local.webhookSecret!;
  const sdk = (key: string) => new Stripe(key, { ...local.sdkOptions, maxNetworkRetries: 0 });
  return {
    local,
    stripe: sdk(local.secretKey),
    publishable: sdk(local.publishableKey),
    receiver,
    async stop() {
      await local.stop();
      await receiver.close();
    },
  };
}

/** Waits until a test clock is `ready` after an advance. */
export async function advance(stripe: Stripe, clock: string, to: number): Promise<void> {
  await stripe.testHelpers.testClocks.advance(clock, { frozen_time: to });
  for (let i = 0; i < 500; i++) {
    const c = await stripe.testHelpers.testClocks.retrieve(clock);
    if (c.status === 'ready') return;
    if (c.status === 'internal_failure') throw new Error('test clock failed');
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('test clock did not become ready');
}

/** Passes or fails the 3-D Secure challenge of an intent, as the tester's click would. */
export async function authenticate(
  local: StripeLocal,
  intent: { id: string; client_secret: string | null },
  pass: boolean,
) {
  const response = await fetch(`${local.url}/3ds/${intent.id}/${pass ? 'complete' : 'fail'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `client_secret=${encodeURIComponent(intent.client_secret ?? '')}`,
  });
  if (!response.ok) throw new Error(`3-D Secure ${response.status}`);
}

export const DAY = 86_400;
