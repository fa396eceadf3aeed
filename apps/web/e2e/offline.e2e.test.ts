import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';

describe('installable PWA', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens the app shell offline after one visit', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log In', exact: true }).waitFor();
    // The manifest is linked and the service worker takes control once it has precached the shell.
    await page.locator('link[rel="manifest"]').waitFor({ state: 'attached' });
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    await context.setOffline(true);
    await page.goto('/forgot-password');
    await page.getByRole('button', { name: 'Send reset link' }).waitFor();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log In', exact: true }).waitFor();
    await context.close();
  });
});
