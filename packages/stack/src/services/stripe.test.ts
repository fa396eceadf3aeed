import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveStripe } from './stripe.ts';

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
});
