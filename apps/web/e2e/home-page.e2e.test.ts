import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import { appUrl, launchBrowser, newPage } from './support/browser.ts';
import { DEMO, logIn } from './support/accounts.ts';

/**
 * A signed-in first visit to /user/home arrives rendered by the server (apps/api/src/http/server-render-support.ts
 * calls the web app's server renderer) with the user's models; the app hydrates it as soon as its code
 * has loaded (server-render.e2e.test.ts).
 */

const serverRendered = (page: Page) =>
  page.evaluate(() => document.querySelector('#root')?.getAttribute('data-server-rendered') ?? null);

describe('the server-rendered home page', () => {
  let browser: Browser;
  /** The demo owner's session cookies, from a sign-in through the form. */
  let session: Cookie[];
  beforeAll(async () => {
    browser = await launchBrowser();
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.owner.email, DEMO.owner.password);
    session = await context.cookies();
    await context.close();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A browser with the session and nothing else (no service worker yet): a first visit. */
  async function firstVisit(options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
    const context = await browser.newContext({ baseURL: appUrl(), serviceWorkers: 'block', ...options });
    await context.addCookies(session);
    return context;
  }

  it("shows the user's own page with the HTML, before (and without) any script", async () => {
    const context = await firstVisit({ javaScriptEnabled: false });
    const page = await context.newPage();
    const answer = await page.goto('/user/home');
    expect(answer?.headers()['cache-control']).toBe('no-store');
    expect(await serverRendered(page)).toBe('home');
    expect(await page.title()).toBe('Models · Helix');
    await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Open Animal cell', exact: true }).waitFor();
    await page.getByTestId('user-menu').getByText('Olivia Owner').waitFor();
    expect(await page.getByRole('img').count()).toBeGreaterThan(3);
    await context.close();
  });

  it("opens the user menu by a tap or the keyboard, before and after the app's code has loaded", async () => {
    // Without any script: the browser's own popover opens it.
    const bare = await firstVisit({ javaScriptEnabled: false });
    const still = await bare.newPage();
    await still.goto('/user/home');
    await still.getByTestId('user-menu').click();
    await still.getByRole('menuitem', { name: 'Log Out' }).waitFor();
    await bare.close();

    const context = await firstVisit();
    const page = await context.newPage();
    await page.goto('/user/home');
    await page.waitForFunction(() => document.querySelector('#root')?.getAttribute('data-hydrated'));
    const menu = page.getByTestId('user-menu');
    // Keyboard: Enter opens it on its first item, the arrows move, Escape closes it back to the button.
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()))
      .toBe('Settings');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Log Out');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()))
      .toBe('Settings');
    await page.keyboard.press('Escape');
    expect(await page.getByRole('menu').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('user-menu');
    // A tap outside closes it; Settings goes to the settings, in the app.
    await menu.click();
    await page.mouse.click(5, 400);
    expect(await page.getByRole('menu').isVisible()).toBe(false);
    await menu.click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/user/settings'));
    expect(await page.getByRole('menu').isVisible()).toBe(false);
    await context.close();
  });

  it('is the app shell for anyone without a session', async () => {
    const context = await browser.newContext({ baseURL: appUrl(), serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto('/user/home');
    await page.waitForURL((url) => url.pathname.startsWith('/login'));
    await context.close();
  });
});
