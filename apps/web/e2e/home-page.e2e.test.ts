import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import { appUrl, launchBrowser, newPage } from './support/browser.ts';
import { holdApp } from './support/drawn-pages.ts';
import { DEMO, logIn } from './support/accounts.ts';

/**
 * A signed-in first visit to /user/home arrives drawn by the server (apps/api/src/http/drawn-home.ts)
 * with the user's models, and the app starts on the first use of the page (src/boot.ts). Holding back
 * the app's main chunk keeps the page drawn for as long as the test needs (support/drawn-pages.ts).
 */

const drawn = (page: Page) =>
  page.evaluate(() => document.querySelector('#root')?.getAttribute('data-prerendered') ?? null);

describe('the drawn home page', () => {
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
    expect(await drawn(page)).toBe('home');
    expect(await page.title()).toBe('Models · Helix');
    await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Open Animal cell', exact: true }).waitFor();
    await page.getByTestId('user-menu').getByText('Olivia Owner').waitFor();
    expect(await page.getByRole('img').count()).toBeGreaterThan(3);
    await context.close();
  });

  it('is the app once used, and a click made before the app was up is made again', async () => {
    const context = await firstVisit();
    const page = await context.newPage();
    const release = await holdApp(page);
    let listings = 0;
    page.on('request', (r) => {
      if (r.url().includes('/model/all')) listings += 1;
    });
    await page.goto('/user/home');
    expect(await drawn(page)).toBe('home');
    // Open a model on the drawn page: the app is still held back, so nothing opens yet.
    await page.getByRole('button', { name: 'Open Animal cell', exact: true }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await release();
    // The app's page replaces the drawn one, and the click opens the viewer there.
    await page.waitForFunction(() => !document.querySelector('#root[data-prerendered]'));
    await page.getByRole('dialog', { name: /Animal cell/ }).waitFor();
    // The grid started with the answer the page was drawn with.
    expect(listings).toBe(0);
    await context.close();
  });

  it('answers the first click on the user menu at once, and the app opens the menu it held', async () => {
    const context = await firstVisit();
    const page = await context.newPage();
    const release = await holdApp(page);
    await page.goto('/user/home');
    expect(await drawn(page)).toBe('home');
    // The drawn page answers the press itself (the hook's element is busy) while the app is held back.
    const menu = page.locator('[data-handover="user-menu"]');
    await menu.click();
    expect(await menu.getAttribute('aria-busy')).toBe('true');
    await release();
    await page.waitForFunction(() => !document.querySelector('#root[data-prerendered]'));
    await page.getByRole('menuitem').first().waitFor();
    await context.close();
  });

  it('keeps the focus and what was typed into the search box when the app takes over', async () => {
    const context = await firstVisit();
    const page = await context.newPage();
    const release = await holdApp(page);
    await page.goto('/user/home');
    await page.getByLabel('Search models').click();
    await page.keyboard.type('neur');
    expect(await drawn(page)).toBe('home');
    await release();
    await page.waitForFunction(() => !document.querySelector('#root[data-prerendered]'));
    const search = page.getByLabel('Search models');
    expect(await search.inputValue()).toBe('neur');
    expect(await search.evaluate((input) => input === document.activeElement)).toBe(true);
    // The app's search took it: the grid shows the match only.
    await page.getByRole('button', { name: 'Open Animal cell', exact: true }).waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Open Neuron', exact: true }).waitFor();
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
