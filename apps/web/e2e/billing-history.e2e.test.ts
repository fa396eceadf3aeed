import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@helix/shared';
import { launchBrowser } from './support/browser.ts';
import { expectPath } from './support/accounts.ts';
import {
  eventually,
  fillCard,
  forgetTrialCards,
  markTrialPassed,
  payOnCheckout,
  stripeSdk,
} from './support/billing.ts';
import { newCustomerPage } from './support/customer-page.ts';
import { waitForMail } from './support/mailbox.ts';

/**
 * Issue 28 in the browser: a trial ended on a failing card shows the payment-failed banner; Billing
 * History never offers a Pay link for a left card form's invoice (only for a failed plan's); Buy
 * Views leaves a paid row in Billing History and a receipt e-mail.
 */
const plan = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** A tenant call made as the signed-in page makes it (its session cookie's token and tenant). */
async function tenantCall(page: Page, path: string, body: object) {
  return page.evaluate(
    async ({ path, body }) => {
      const cookie = (name: string) =>
        decodeURIComponent(
          document.cookie
            .split('; ')
            .find((c) => c.startsWith(`${name}=`))
            ?.split('=')[1] ?? '',
        );
      const res = await fetch(`/api/t/${cookie('tenant')}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', Authorization: `Bearer ${cookie('apiToken')}` },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    { path, body },
  );
}

const historyRows = (page: Page) => page.getByRole('table').locator('tbody tr.ant-table-row');

describe('billing history and banners (issue 28)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a trial ended now on a failing card shows the payment-failed banner, and its invoice can be paid', async () => {
    await forgetTrialCards();
    const { context, page, person } = await newCustomerPage(browser);
    const individual = plan(page, 'Individual Monthly');
    await individual.getByRole('button', { name: 'Try for Free' }).click();
    await individual.getByRole('button', { name: 'Buy Now' }).click();
    await fillCard(page, '4000 0000 0000 0341');
    await page.getByLabel('I agree to the Privacy Policy').check();
    await page.getByRole('button', { name: 'Start Trial' }).click();
    await page.getByText(MSG.subscribedSuccess).first().waitFor({ timeout: 30_000 });
    await expectPath(page, '/user/home', 25_000);
    expect(await page.getByTestId('banner-payment-failed').count()).toBe(0);

    // The trial ends now (as Stripe's dashboard or API does it): the first charge fails.
    const stripe = stripeSdk();
    const customers = await stripe.customers.list({ email: person.email, limit: 1 });
    const [sub] = (await stripe.subscriptions.list({ customer: customers.data[0]!.id })).data;
    expect((await stripe.subscriptions.update(sub!.id, { trial_end: 'now' })).status).toBe('past_due');

    const banner = page.getByTestId('banner-payment-failed');
    await eventually(page, () => banner.waitFor({ timeout: 5000 }).then(() => true), 'the banner', 45_000);
    await page.goto('/user/settings/billing-history');
    const open = historyRows(page).filter({ hasText: 'Open' });
    await open.first().waitFor({ timeout: 20_000 });
    await open.first().getByRole('link', { name: /^Pay/ }).waitFor();
    await context.close();
  });

  it('a card form left for another plan is listed without a Pay link', async () => {
    const { context, page } = await newCustomerPage(browser, (person) => markTrialPassed(person.email));
    const educator = plan(page, 'Educator Monthly');
    await educator.getByRole('button', { name: 'Select', exact: true }).click();
    await educator.getByRole('button', { name: 'Buy Now' }).click();
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByLabel('I agree to the Privacy Policy').check();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText(MSG.subscribedSuccess).first().waitFor({ timeout: 30_000 });
    await page.waitForURL((url) => !url.pathname.startsWith('/success'), { timeout: 30_000 });

    // The owner opens a card payment for Individual Monthly and walks away.
    const left = await tenantCall(page, '/subscription/payment-intent', { planId: 7 });
    expect(left.status, JSON.stringify(left.body)).toBe(200);

    await page.goto('/user/settings/billing-history');
    const rows = historyRows(page);
    await rows.filter({ hasText: '$12.00' }).first().waitFor({ timeout: 20_000 });
    expect(await rows.count()).toBe(2);
    expect(await rows.filter({ hasText: '$12.00' }).innerText()).toContain('Open');
    expect(await page.getByRole('link', { name: /^Pay/ }).count()).toBe(0);
    expect(await rows.filter({ hasText: '$12.00' }).getByRole('link', { name: /^View/ }).count()).toBe(0);
    await context.close();
  });

  it('Buy Views leaves a paid row in Billing History and mails a receipt', async () => {
    const { context, page, person } = await newCustomerPage(browser, (p) => markTrialPassed(p.email));
    const educator = plan(page, 'Educator Monthly');
    await educator.getByRole('button', { name: 'Select', exact: true }).click();
    await educator.getByRole('button', { name: 'Buy Now' }).click();
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByLabel('I agree to the Privacy Policy').check();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.getByText(MSG.subscribedSuccess).first().waitFor({ timeout: 30_000 });
    await expectPath(page, '/user/home', 25_000);

    await page.getByRole('button', { name: 'Add Views' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Views' });
    await dialog.getByLabel('Blocks of 1,000 views').fill('1');
    await dialog.getByRole('button', { name: 'Buy Views' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/c/pay/'), { timeout: 20_000 });
    await payOnCheckout(page);
    await expectPath(page, /^\/success/, 30_000);

    const receipt = await waitForMail(person.email, 30_000, (m) => /receipt.*\$4\.00 paid/.test(m.subject));
    expect(receipt.text).toContain('1,000 additional views');
    await page.goto('/user/settings/billing-history');
    const row = historyRows(page).filter({ hasText: '$4.00' });
    await row.first().waitFor({ timeout: 20_000 });
    expect(await row.innerText()).toContain('Paid');
    await row.getByRole('link', { name: /^View/ }).waitFor();
    await context.close();
  });
});
