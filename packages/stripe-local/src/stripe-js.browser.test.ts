import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './testing/harness.ts';
import { createMonthlyPrice } from './testing/subscriptions.ts';

/**
 * The Stripe.js stand-in and the hosted pages in Debian's Chromium (never a downloaded browser), from a
 * page on another origin, as the portal uses them.
 */
let h: Harness;
let browser: Browser;
let site: Server;
let siteUrl: string;
let monthly: Stripe.Price;

const pageHtml = (stripeJsUrl: string, pk: string) => `<!doctype html><html><body>
<div id="wallet"></div><div id="card"></div><p id="state">none</p><p id="wallet-pm"></p>
<script src="${stripeJsUrl}"></script>
<script>
  const stripe = Stripe('${pk}');
  const elements = stripe.elements();
  const card = elements.create('card');
  card.on('change', (e) => { document.getElementById('state').textContent = e.complete ? 'complete' : e.error ? e.error.message : 'incomplete'; });
  card.mount('#card');
  const request = stripe.paymentRequest({ country: 'US', currency: 'usd', total: { label: 'Plan', amount: 1200 } });
  request.canMakePayment().then((result) => {
    if (!result) return;
    elements.create('paymentRequestButton', { paymentRequest: request }).mount('#wallet');
  });
  request.on('paymentmethod', (e) => { document.getElementById('wallet-pm').textContent = e.paymentMethod.id; e.complete('success'); });
  window.confirmSetup = (secret) => stripe.confirmCardSetup(secret, { payment_method: { card } });
  window.confirmPayment = (secret) => stripe.confirmCardPayment(secret, { payment_method: { card } });
</script></body></html>`;

beforeAll(async () => {
  h = await startHarness();
  monthly = await createMonthlyPrice(h.stripe);
  site = createServer((req, res) => {
    if (req.url === '/')
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(pageHtml(h.local.stripeJsUrl, h.local.publishableKey));
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(`landed ${req.url}`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://localhost:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await h?.stop();
});

async function openCard(number: string): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(siteUrl);
  await page.getByTestId('card-number').fill(number);
  await page.getByTestId('card-expiry').fill('12 / 40');
  await page.getByTestId('card-cvc').fill('123');
  await page.getByTestId('card-postal').fill('12345');
  await expect.poll(() => page.locator('#state').textContent()).toBe('complete');
  return page;
}

describe('Stripe.js stand-in', () => {
  it('looks like Stripe.js to @stripe/stripe-js and @stripe/react-stripe-js', async () => {
    const page = await browser.newPage();
    await page.goto(siteUrl);
    const shape = await page.evaluate(() => {
      const S = (
        globalThis as unknown as { Stripe: ((pk: string) => Record<string, unknown>) & { version: string } }
      ).Stripe;
      // @stripe/stripe-js calls it without `new` (Stripe.apply(undefined, args)).
      const stripe = S.apply(undefined, ['pk_test_stripe_local_0000000000000000']);
      return {
        version: S.version,
        fns: [
          'elements',
          'createToken',
          'createPaymentMethod',
          'confirmCardPayment',
          'confirmCardSetup',
          '_registerWrapper',
          'registerAppInfo',
        ].filter((name) => typeof stripe[name] !== 'function'),
      };
    });
    expect(shape).toEqual({ version: 'endive', fns: [] });
    await page.close();
  });

  it('confirms a card set-up with the 3-D Secure challenge passed, and reports a failed one', async () => {
    const customer = await h.stripe.customers.create({});
    for (const pass of [true, false]) {
      const si = await h.stripe.setupIntents.create({ customer: customer.id });
      const page = await openCard('4000002500003155');
      const result = page.evaluate(
        (secret) =>
          (globalThis as unknown as { confirmSetup: (s: string) => Promise<unknown> }).confirmSetup(secret),
        si.client_secret!,
      );
      await page.getByTestId('three-ds-modal').waitFor();
      await page.getByTestId(pass ? 'three-ds-complete' : 'three-ds-fail').click();
      const outcome = (await result) as { setupIntent?: Stripe.SetupIntent; error?: { code: string } };
      if (pass) expect(outcome.setupIntent?.status).toBe('succeeded');
      else expect(outcome.error?.code).toBe('setup_intent_authentication_failure');
      await page.close();
    }
  });

  it('answers a decline with the card error, and shows a bad number as invalid', async () => {
    const pi = await h.stripe.paymentIntents.create({ amount: 1200, currency: 'usd' });
    const page = await openCard('4000000000009995');
    const outcome = (await page.evaluate(
      (secret) =>
        (globalThis as unknown as { confirmPayment: (s: string) => Promise<unknown> }).confirmPayment(secret),
      pi.client_secret!,
    )) as {
      error?: { code: string; decline_code: string };
    };
    expect(outcome.error).toMatchObject({ code: 'card_declined', decline_code: 'insufficient_funds' });
    await page.getByTestId('card-number').fill('4242424242424241');
    await expect.poll(() => page.locator('#state').textContent()).toBe('Your card number is invalid.');
    await page.close();
  });

  it('gives a wallet PaymentMethod when the wallet button is clicked', async () => {
    const page = await browser.newPage();
    await page.goto(siteUrl);
    await page.getByTestId('wallet-button').click();
    await expect.poll(() => page.locator('#wallet-pm').textContent()).toMatch(/^pm_/);
    const pm = await h.stripe.paymentMethods.retrieve((await page.locator('#wallet-pm').textContent())!);
    expect(pm.card?.wallet?.type).toBe('google_pay');
    await page.close();
  });
});

describe('hosted pages in the browser', () => {
  it('pays a Checkout session with the 3-D Secure card and lands on success_url', async () => {
    const session = await h.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer_email: 'browser@example.com',
      line_items: [{ price: monthly.id, quantity: 1 }],
      success_url: `${siteUrl}/success/{CHECKOUT_SESSION_ID}`,
      cancel_url: `${siteUrl}/cancel`,
    });
    const page = await browser.newPage();
    await page.goto(session.url!);
    await page.getByTestId('card-number').fill('4000 0025 0000 3155');
    await page.getByTestId('card-expiry').fill('12 / 40');
    await page.getByTestId('card-cvc').fill('123');
    await page.getByTestId('checkout-submit').click();
    await page.getByTestId('three-ds-complete').click();
    await page.waitForURL(`${siteUrl}/success/${session.id}`);
    const done = await h.stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    expect((done.subscription as Stripe.Subscription).status).toBe('active');
    await page.close();
  });

  it('pays an open invoice on its hosted page with the 3-D Secure card, then shows it paid', async () => {
    const customer = await h.stripe.customers.create({ email: 'hosted@example.com' });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
      payment_behavior: 'default_incomplete',
      expand: ['latest_invoice'],
    });
    const invoice = sub.latest_invoice as Stripe.Invoice;
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(invoice.hosted_invoice_url!);
    await expect.poll(() => page.getByTestId('invoice-status').textContent()).toBe('Due');
    expect(await page.getByTestId('invoice-number').textContent()).toBe(invoice.number);
    await page.getByTestId('card-number').fill('4000 0027 6000 3184');
    await page.getByTestId('card-expiry').fill('12 / 40');
    await page.getByTestId('card-cvc').fill('123');
    await page.getByTestId('invoice-pay').click();
    await page.getByTestId('three-ds-complete').click();
    await expect.poll(() => page.getByTestId('invoice-status').textContent()).toBe('Paid');
    expect(await page.getByTestId('invoice-paid').isVisible()).toBe(true);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
    await page.close();
  });
});
