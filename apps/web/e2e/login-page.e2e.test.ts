import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { appUrl, launchBrowser, newPage } from './support/browser.ts';
import { holdApp } from './support/drawn-pages.ts';
import { expectPath } from './support/accounts.ts';
import { registerPerson } from './support/billing.ts';

/**
 * /login arrives drawn (apps/web/build/prerender-login.ts) and the app starts on the first use of the
 * page (src/boot.ts). Holding back the app's main chunk keeps the page in its drawn state for as
 * long as a test needs: what the visitor does meanwhile must carry over to the app's form.
 */
/** Marks the drawn form, so a test can tell when the app's own form has replaced it. */
const markDrawn = (page: Page) =>
  page.evaluate(() => {
    (document.querySelector('form#login') as HTMLFormElement & { drawn?: true }).drawn = true;
  });
const appFormUp = (page: Page) =>
  page.waitForFunction(() => {
    const form = document.querySelector('form#login') as (HTMLFormElement & { drawn?: true }) | null;
    return form !== null && !form.drawn;
  });

describe('the drawn login page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the real form with the HTML, before (and without) any script', async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false, baseURL: appUrl() });
    const page = await noScript.newPage();
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).waitFor();
    await page.getByLabel('Password', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Log In', exact: true }).waitFor();
    await page.getByRole('tab', { name: 'Sign Up' }).waitFor();
    expect(await page.title()).toBe('Login · Helix');
    await noScript.close();
  });

  it('keeps what was typed and where, when the app takes over', async () => {
    const { context, page } = await newPage(browser);
    const release = await holdApp(page);
    await page.goto('/login');
    await markDrawn(page);
    await page.getByLabel('Email', { exact: true }).fill('early@example.com');
    await page.getByLabel('Password', { exact: true }).fill('typed-before-the-app');
    await page.getByLabel('Remember me').check();
    // Back to the e-mail field (an e-mail input has no caret position to restore).
    await page.getByLabel('Email', { exact: true }).click();
    // Still the drawn form: the app is held back.
    expect(
      await page.evaluate(() => Boolean((document.querySelector('form#login') as { drawn?: true }).drawn)),
    ).toBe(true);
    await release();
    await appFormUp(page);
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('early@example.com');
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('typed-before-the-app');
    expect(await page.getByLabel('Remember me').isChecked()).toBe(true);
    // The focus stays in the field the visitor was in.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('login_email');
    // And the form is the app's: the validation runs.
    await page.getByLabel('Email', { exact: true }).fill('not an e-mail');
    await page.getByText('The input is not valid E-mail!').waitFor();
    await context.close();
  });

  it('goes on to Google when "Continue with Google" was pressed before the app was up', async () => {
    const { context, page } = await newPage(browser);
    const release = await holdApp(page);
    await page.goto('/login');
    const toGoogle = page.waitForRequest((request) => request.url().includes('/api/auth/google?type=login'));
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    expect(new URL(page.url()).pathname).toBe('/login');
    await release();
    await toGoogle;
    await context.close();
  });

  it('logs in when Enter was pressed before the app was up', async () => {
    const { context, page } = await newPage(browser);
    const person = await registerPerson(page);
    const release = await holdApp(page);
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    // The drawn form did not navigate anywhere: it waits for the app, and says so at once (the Log In
    // button is busy, with a spinner: styles/global.css).
    expect(new URL(page.url()).pathname).toBe('/login');
    const logIn = page.getByRole('button', { name: 'Log In', exact: true });
    expect(await logIn.getAttribute('aria-busy')).toBe('true');
    expect(await logIn.evaluate((el) => getComputedStyle(el, '::after').animationName)).toBe('drawn-busy');
    await release();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await expectPath(page, '/subscription');
    await context.close();
  });
});
