import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '@helix/shared';
import { launchBrowser, newPage } from './support/browser.ts';
import { expectPath, fieldErrors, logIn, logOut, newPerson, signUp } from './support/accounts.ts';
import { firstLink, waitForMail } from './support/mailbox.ts';

describe('forgot password in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('e-mails a link, sets a new password through it and logs in with it', async () => {
    const person = newPerson();
    const setup = await newPage(browser);
    await signUp(setup.page, person);
    await expectPath(setup.page, /^\/choose-subscription/);
    await setup.context.close();

    const { context, page } = await newPage(browser);
    await page.goto('/forgot-password');
    await page.getByLabel('Email', { exact: true }).fill(person.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(MSG.resetEmailSent(person.email)).first().waitFor();

    const mail = await waitForMail(person.email);
    const link = new URL(firstLink(mail, '/set-password'));
    expect(link.searchParams.get('token')).toBeTruthy();

    await page.goto(`${link.pathname}${link.search}`);
    await page.getByLabel('New password').fill('short');
    await page.getByLabel('Confirm password').fill('different');
    await page.getByRole('button', { name: 'Set Password' }).click();
    const errors = await fieldErrors(page);
    expect(errors).toContain(MSG.passwordMin8);
    await page.getByLabel('New password').fill('a-brand-new-password');
    await page.getByLabel('Confirm password').fill('a-brand-new-pass');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await page.locator('.ant-form-item-explain-error', { hasText: MSG.passwordMismatch }).waitFor();
    await page.getByLabel('Confirm password').fill('a-brand-new-password');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await expectPath(page, /^\/login/);

    await logIn(page, person.email, 'a-brand-new-password');
    await expectPath(page, /^\/(choose-subscription|subscription)/);
    await logOut(page);

    // The link is single-use.
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByLabel('New password').fill('yet-another-password');
    await page.getByLabel('Confirm password').fill('yet-another-password');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await page.getByText(MSG.resetTokenInvalid).first().waitFor();
    await context.close();
  });

  it('answers the same for an address that has no account', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/forgot-password');
    await page.getByLabel('Email', { exact: true }).fill('nobody.here@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(MSG.resetEmailSent('nobody.here@example.com')).first().waitFor();
    await context.close();
  });
});
