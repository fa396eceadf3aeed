import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { Supervisor } from '../supervisor.ts';
import { resolveStripe, STRIPE_LOCAL_PROCESS } from './stripe.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'helix-stripe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveStripe', () => {
  it('uses real Stripe when STRIPE_SECRET_KEY is set and starts nothing', async () => {
    const service = await resolveStripe({
      env: { STRIPE_SECRET_KEY: 'sk_test_real' },
      apiUrl: 'http://127.0.0.1:1',
      dataDir: dir,
    });
    expect(service.kind).toBe('external');
    expect(service.env).toEqual({});
  });

  it('never starts stripe-local in production', async () => {
    const service = await resolveStripe({
      env: { NODE_ENV: 'production' },
      apiUrl: 'http://127.0.0.1:1',
      dataDir: dir,
    });
    expect(service.env).toEqual({});
    expect(service.description).toMatch(/card payment is off/);
  });

  it('starts stripe-local with the API webhook registered and hands over the variables', async () => {
    const service = await resolveStripe({
      env: {},
      apiUrl: 'http://127.0.0.1:1',
      port: 0,
      dataDir: dir,
      persist: false,
    });
    try {
      expect(service.kind).toBe('embedded');
      expect(Object.keys(service.env).sort()).toEqual([
        'STRIPE_API_URL',
        'STRIPE_JS_URL',
        'STRIPE_PUBLISHABLE_KEY',
        'STRIPE_SECRET_KEY',
        'STRIPE_WEBHOOK_SECRET',
      ]);
      const url = new URL(service.env.STRIPE_API_URL!);
      const stripe = new Stripe(service.env.STRIPE_SECRET_KEY!, {
        host: url.hostname,
        port: Number(url.port),
        protocol: 'http',
      });
      const endpoints = await stripe.webhookEndpoints.list();
      expect(endpoints.data.map((e) => e.url)).toEqual(['http://127.0.0.1:1/api/stripe/webhook']);
      const js = await fetch(service.env.STRIPE_JS_URL!);
      expect(await js.text()).toContain('window.Stripe = Stripe');
    } finally {
      await service.stop();
    }
  });

  it('runs stripe-local as a supervised process: a SIGKILL is restarted on its port, with its state', async () => {
    const supervisor = new Supervisor({ baseDelayMs: 100, log: () => {} });
    const service = await resolveStripe({
      env: {},
      apiUrl: 'http://127.0.0.1:1',
      port: 0,
      dataDir: dir,
      persist: false,
      supervisor,
      quiet: true,
    });
    supervisor.running();
    try {
      const url = new URL(service.env.STRIPE_API_URL!);
      const stripe = new Stripe(service.env.STRIPE_SECRET_KEY!, {
        host: url.hostname,
        port: Number(url.port),
        protocol: 'http',
        maxNetworkRetries: 0,
      });
      const customer = await stripe.customers.create({ email: 'kept@example.test' });
      const first = supervisor.current(STRIPE_LOCAL_PROCESS)!;
      first.signal('SIGKILL');
      expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
      // Restarted after the backoff, on the same address, with what it had answered.
      const deadline = Date.now() + 90_000; // a liveness bound, not a speed check
      let kept: Stripe.Customer | Stripe.DeletedCustomer | undefined;
      while (!kept && Date.now() < deadline) {
        kept = await stripe.customers.retrieve(customer.id).catch(() => undefined);
        if (!kept) await new Promise((r) => setTimeout(r, 200));
      }
      expect(kept).toMatchObject({ id: customer.id, email: 'kept@example.test' });
      expect(supervisor.current(STRIPE_LOCAL_PROCESS)).not.toBe(first);
      expect(supervisor.restarts).toBe(1);
    } finally {
      await supervisor.stop();
    }
  });
});
