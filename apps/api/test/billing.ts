import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import request from 'supertest';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect } from 'vitest';
import { CardCheckoutView, SubscriptionSummaryView, SubscriptionView } from '@helix/shared/schemas/billing';
import { SessionUser } from '@helix/shared/schemas/session';
import { startStripeLocal, type StripeLocal } from '@helix/stripe-local';
import { STRIPE_API_VERSION } from '@helix/server/billing/stripe-client';
import { ensureStripeCatalog } from '@helix/server/billing/stripe-catalog.command';
import type { Tenant, User } from '@helix/server/db';
import { createTenant, createUser, PASSWORD } from '@helix/server/testing/factories';
import { seed } from '../../../prisma/seed.ts';
import { createHarness, type Harness } from './harness.ts';

/**
 * The billing test bed: a Stripe-compatible server (packages/stripe-local, in-process), the real app
 * over the harness's PostgreSQL and Redis listening on a port so Stripe can deliver signed webhooks,
 * a webhook endpoint registered through the API (as with Stripe test mode), and the seeded plans.
 * With STRIPE_TEST_SECRET_KEY (and STRIPE_TEST_WEBHOOK_URL reachable by Stripe) the same tests would
 * talk to Stripe test mode instead; the 3-D Secure challenge is then a browser step they cannot take.
 */
export interface BillingBed {
  h: Harness;
  app: Express;
  /** The SDK as the tests' "browser" and "Stripe dashboard" (secret key). */
  stripe: Stripe;
  local: StripeLocal | null;
  /** The signing secret of the webhook endpoint (the app's STRIPE_WEBHOOK_SECRET). */
  webhookSecret: string;
  close(): Promise<void>;
}

async function createBillingBed(): Promise<BillingBed> {
  const realKey = process.env.STRIPE_TEST_SECRET_KEY;
  const local = realKey
    ? null
    : await startStripeLocal({ port: 0, webhookRetryDelaysMs: [200, 400, 800, 1600] });
  const key = realKey ?? local!.secretKey;
  const stripeEnv: Record<string, string> = {
    STRIPE_SECRET_KEY: key,
    ...(local
      ? {
          STRIPE_API_URL: local.url,
          STRIPE_PUBLISHABLE_KEY: local.publishableKey,
          STRIPE_JS_URL: local.stripeJsUrl,
        }
      : {}),
  };
  const h = await createHarness(stripeEnv);
  await seed(h.config.DATABASE_URL, { demo: false });
  let app: Express = h.app;
  const server: Server = createServer((req, res) => app(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const stripe = new Stripe(key, {
    apiVersion: STRIPE_API_VERSION,
    ...(local ? { host: local.host, port: local.port, protocol: 'http' as const } : {}),
  });
  const endpoint = await stripe.webhookEndpoints.create({
    url: process.env.STRIPE_TEST_WEBHOOK_URL ?? `http://127.0.0.1:${port}/api/stripe/webhook`,
    enabled_events: ['*'],
  });
  app = h.appWith({ ...stripeEnv, STRIPE_WEBHOOK_SECRET: endpoint.secret! });
  return {
    h,
    get app() {
      return app;
    },
    stripe,
    local,
    webhookSecret: endpoint.secret!,
    async close() {
      await stripe.webhookEndpoints.del(endpoint.id).catch(() => undefined);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await local?.stop();
      await h.close();
    },
  };
}

/** The seeded plans' ids (prisma/seed.ts). */
export const INDIVIDUAL_MONTHLY = 7;
export const EDUCATOR_MONTHLY = 8;
export const ENTERPRISE_MONTHLY = 13;

/**
 * The bed of a test file, with the plans' Stripe catalogue: made before its tests, closed after. What
 * it answers stands for the bed once beforeAll has run.
 */
export function useBillingBed(): BillingBed {
  let bed: BillingBed | undefined;
  beforeAll(async () => {
    bed = await createBillingBed();
    await ensureStripeCatalog(bed.h.deps);
  }, 60_000);
  afterAll(async () => {
    await bed?.close();
  });
  const current = () => {
    if (!bed) throw new Error('the billing bed is used before beforeAll has made it');
    return bed;
  };
  return {
    get h() {
      return current().h;
    },
    get app() {
      return current().app;
    },
    get stripe() {
      return current().stripe;
    },
    get local() {
      return current().local;
    },
    get webhookSecret() {
      return current().webhookSecret;
    },
    close: () => current().close(),
  };
}

export interface Customer {
  tenant: Tenant;
  owner: User;
  token: string;
  /** GET a tenant call with the owner's session (or `token`'s). */
  get(path: string, token?: string): request.Test;
  /** POST to a tenant call with the owner's session. */
  post(path: string, body?: object, token?: string): request.Test;
}

/** A customer tenant (not subscribed) with its owner signed in; optionally its Stripe customer on a test clock. */
export async function customer(
  bed: BillingBed,
  opts: { clock?: boolean } = {},
): Promise<Customer & { clockId?: string }> {
  const tenant = await createTenant(bed.h.db);
  const owner = await createUser(bed.h.db, { tenant, roles: ['Admin'], isOwner: true });
  let clockId: string | undefined;
  if (opts.clock) {
    const clock = await bed.stripe.testHelpers.testClocks.create({
      frozen_time: Math.floor(Date.now() / 1000),
    });
    clockId = clock.id;
    const cus = await bed.stripe.customers.create({
      email: owner.email,
      test_clock: clock.id,
      metadata: { tenantId: String(tenant.id) },
    });
    await bed.h.db.tenant.update({ where: { id: tenant.id }, data: { stripeCustomerId: cus.id } });
  }
  const token = await login(bed, owner.email);
  return {
    tenant,
    owner,
    token,
    clockId,
    get: (path, as = token) =>
      request(bed.app).get(`/api/t/${tenant.domainPrefix}${path}`).set('Authorization', `Bearer ${as}`),
    post: (path, body = {}, as = token) =>
      request(bed.app)
        .post(`/api/t/${tenant.domainPrefix}${path}`)
        .set('Authorization', `Bearer ${as}`)
        .send(body),
  };
}

/** The signed-in user as the web app reads it (GET /user/info). */
export async function userInfo(c: Customer) {
  const res = await c.get('/user/info');
  expect(res.status).toBe(200);
  return SessionUser.parse(res.body.user ?? res.body);
}

export async function login(bed: BillingBed, email: string): Promise<string> {
  const res = await request(bed.app).post('/api/user/login').send({ email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.apiToken as string;
}

/** Polls until `check` answers a truthy value (webhooks arrive asynchronously). */
export async function waitFor<T>(
  check: () => Promise<T>,
  what: string,
  timeoutMs = 90_000, // a liveness bound, not a speed check
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: T;
  do {
    last = await check();
    if (last) return last as NonNullable<T>;
    await new Promise((r) => setTimeout(r, 100));
  } while (Date.now() < end);
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last)}`);
}

export const storedSubscription = (bed: BillingBed, tenantId: number) =>
  bed.h.db.tenantSubscription.findUniqueOrThrow({ where: { tenantId } });

/** Advances a test clock and waits until Stripe has finished moving the clock's objects. */
export async function advanceClock(bed: BillingBed, clockId: string, to: Date) {
  await bed.stripe.testHelpers.testClocks.advance(clockId, { frozen_time: Math.floor(to.getTime() / 1000) });
  await waitFor(
    async () => (await bed.stripe.testHelpers.testClocks.retrieve(clockId)).status === 'ready',
    'the test clock',
  );
}

/** Completes or fails a 3-D Secure challenge as the tester would on the local server's page. */
export async function answerThreeDSecure(
  bed: BillingBed,
  intent: { id: string; client_secret: string | null },
  pass: boolean,
) {
  if (!bed.local) throw new Error('3-D Secure challenges need a browser against Stripe test mode');
  const res = await fetch(`${bed.local.url}/3ds/${intent.id}/${pass ? 'complete' : 'fail'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_secret: intent.client_secret ?? '' }),
    redirect: 'manual',
  });
  if (res.status >= 400) throw new Error(`3-D Secure answer failed: ${res.status}`);
}

/** Pays a hosted Checkout page with a card number, as a visitor would. */
export async function payCheckout(bed: BillingBed, url: string, cardNumber = '4242424242424242') {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      cardNumber,
      cardExpiry: '12 / 34',
      cardCvc: '123',
      billingName: 'Test Payer',
      email: 'payer@example.test',
      postalCode: '12345',
    }),
    redirect: 'manual',
  });
  if (res.status >= 400) throw new Error(`Checkout payment failed: ${res.status} ${await res.text()}`);
  return res;
}

/** A Luhn-valid 16-digit number starting with `prefix` (the rest random). */
export function luhnNumber(prefix = '4242'): string {
  const digits = prefix.split('').map(Number);
  while (digits.length < 15) digits.push(Math.floor(Math.random() * 10));
  let sum = 0;
  for (let i = 0; i < 15; i += 1) {
    let d = digits[14 - i]!;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  digits.push((10 - (sum % 10)) % 10);
  return digits.join('');
}

/**
 * A card of its own (a new fingerprint): Stripe's named test cards share one fingerprint per account,
 * and a card gets one free trial on any tenant, so each trial test uses a fresh succeeding card (the
 * same `number` twice makes two PaymentMethods of one card).
 */
export async function freshCard(bed: BillingBed, number = luhnNumber()): Promise<string> {
  const pm = await bed.stripe.paymentMethods.create({
    type: 'card',
    card: { number, exp_month: 12, exp_year: 2034, cvc: '123' },
  });
  return pm.id;
}

/** Forgets which cards had a trial (for tests that start a trial on a named test card). */
export const forgetTrialCards = (bed: BillingBed) => bed.h.db.trialCard.deleteMany();

/** GET /subscription/summary as the owner, parsed. */
export async function summaryOf(c: Customer) {
  const res = await c.get('/subscription/summary');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return SubscriptionSummaryView.parse(res.body);
}

/** A tenant on a paid plan (trial passed, card checkout paid with `card`). */
export async function paidTenant(bed: BillingBed, planId: number, quantity?: number, card = 'pm_card_visa') {
  const c = await customer(bed);
  await bed.h.db.tenantSubscription.upsert({
    where: { tenantId: c.tenant.id },
    update: { isTrialPassed: true },
    create: { tenantId: c.tenant.id, isTrialPassed: true },
  });
  const checkout = CardCheckoutView.parse(
    (await c.post('/subscription/payment-intent', { planId, ...(quantity ? { quantity } : {}) })).body,
  );
  const paid = await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, { payment_method: card });
  expect(paid.status).toBe('succeeded');
  await waitFor(async () => {
    const s = await storedSubscription(bed, c.tenant.id);
    return s.status === 'active' && s.planId === planId;
  }, 'paid plan');
  return { c, subscriptionId: checkout.subscriptionId };
}

/** A tenant on a trial with `card` (a fresh succeeding card by default); optionally on a test clock. */
export async function trialTenant(
  bed: BillingBed,
  planId: number,
  card?: string,
  opts: { clock?: boolean } = {},
) {
  const c = await customer(bed, opts);
  const res = await c.post('/subscription/createtrials', {
    planId,
    paymentId: card ?? (await freshCard(bed)),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const sub = SubscriptionView.parse(res.body);
  expect(sub.status).toBe('trialing');
  await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'trialing', 'trialing');
  return { c, sub };
}
