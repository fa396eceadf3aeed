import pg from 'pg';
import Stripe from 'stripe';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { newPerson } from './accounts.ts';

/**
 * The Stripe SDK pointed at the run's stripe-local (the server the portal and Stripe.js talk to), for
 * what a real test would do through Stripe's own test helpers: test clocks.
 */
export function stripeSdk(): Stripe {
  const url = new URL(inject('stripeUrl'));
  return new Stripe(inject('stripeSecretKey'), {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
  });
}

/** One statement against the run's database (test set-up of states that take a month to reach). */
export async function sql(text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** A new account made through the API (the sign-up form has its own tests), ready to log in. */
export async function registerPerson(page: Page) {
  const person = newPerson();
  const response = await page.request.post('/api/user/register', {
    data: {
      name: person.name,
      user_name: person.userName,
      email: person.email,
      password: person.password,
      emailstatus: false,
    },
  });
  if (!response.ok()) throw new Error(`register failed: ${response.status()} ${await response.text()}`);
  // The browser must not keep this session: the test logs in through the form.
  await page.context().clearCookies();
  return person;
}

/** The tenant's 30-day trial is over (as if a month had passed since it was used). */
export const markTrialPassed = (email: string) =>
  sql(
    `UPDATE "TenantSubscription" SET "isTrialPassed" = true
     WHERE "tenantId" = (SELECT "tenantId" FROM "User" WHERE email = $1)`,
    [email],
  );

/**
 * Forgets which cards had a free trial (one trial per card, on any tenant): the named test cards and
 * the wallet's card share one fingerprint, so a test that starts a trial on one clears it first.
 */
export const forgetTrialCards = () => sql('DELETE FROM "TrialCard"');

/** The tenant's plan was deactivated (its trial passed, then it was cancelled or never paid). */
export const markDeactivated = (email: string, planId: number) =>
  sql(
    `UPDATE "TenantSubscription"
     SET status = 'deactivated', "activePayment" = false, "isTrialPassed" = true, "planId" = $2
     WHERE "tenantId" = (SELECT "tenantId" FROM "User" WHERE email = $1)`,
    [email, planId],
  );

/** Gives the tenant a Stripe customer on a test clock, so the test can move its time forward. */
export async function customerOnTestClock(stripe: Stripe, email: string) {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: Math.floor(Date.now() / 1000) });
  const customer = await stripe.customers.create({ email, test_clock: clock.id });
  await sql(
    `UPDATE "Tenant" SET "stripeCustomerId" = $2
     WHERE id = (SELECT "tenantId" FROM "User" WHERE email = $1)`,
    [email, customer.id],
  );
  return { clock, customer };
}

/** Types a card into the card element (stripe-local's Stripe.js renders plain inputs). */
export async function fillCard(page: Page, number: string): Promise<void> {
  const card = page.getByTestId('card-element');
  await card.getByTestId('card-number').fill(number);
  await card.getByTestId('card-expiry').fill('12 / 34');
  await card.getByTestId('card-cvc').fill('123');
}

/** Fills stripe-local's hosted Checkout page and pays. */
export async function payOnCheckout(page: Page, number = '4242 4242 4242 4242'): Promise<void> {
  await page.getByTestId('checkout-submit').waitFor();
  await page.getByTestId('card-number').fill(number);
  await page.getByTestId('card-expiry').fill('12 / 34');
  await page.getByTestId('card-cvc').fill('123');
  await page.getByTestId('billing-name').fill('Test Buyer');
  const email = page.getByTestId('checkout-email');
  if ((await email.count()) && (await email.isEditable())) await email.fill('buyer@example.com');
  await page.getByTestId('checkout-submit').click();
}

/** Reloads until the check passes (webhooks and the session refresh land within seconds). */
export async function eventually(
  page: Page,
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await page.waitForTimeout(1500);
    await page.reload();
  }
  throw new Error(`timed out waiting for ${what}`);
}
