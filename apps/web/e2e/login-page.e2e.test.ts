import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { appUrl, launchBrowser } from './support/browser.ts';

/**
 * /login arrives rendered (apps/web/build/render-login.ts, with the app's own routes and form) and
 * the app hydrates it as soon as its code has loaded (server-render.e2e.test.ts proves the hydration).
 */
describe('the server-rendered login page', () => {
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
});
