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

  it('opens its own user menu at the first click, and the app keeps it open when it takes over', async () => {
    const context = await firstVisit();
    const page = await context.newPage();
    const release = await holdApp(page);
    await page.goto('/user/home');
    expect(await drawn(page)).toBe('home');
    // The drawn page answers the press itself with the app's items, while the app is held back.
    const button = page.getByTestId('user-menu');
    await button.click();
    const menu = page.getByRole('menu', { name: 'User menu (Olivia Owner)' });
    await menu.waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Settings', 'Log Out']);
    expect(await drawn(page)).toBe('home');
    // A click elsewhere closes it, as the app's does; another click opens it again.
    await page.getByRole('heading', { name: 'Models', level: 1 }).click();
    await menu.waitFor({ state: 'detached' });
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    // So does a press into the search field (which the drawn page leaves to the browser).
    await button.click();
    await menu.waitFor();
    await page.getByLabel('Search models').click();
    await menu.waitFor({ state: 'detached' });
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    await menu.waitFor();
    await release();
    // The app's header replaces the drawn one with its own menu open: the same items, no flicker shut.
    await page.waitForFunction(() => !document.querySelector('#root[data-prerendered]'));
    expect(await page.locator('.drawn-menu').count()).toBe(0);
    const appMenu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) [role="menu"]');
    await appMenu.waitFor();
    expect(await appMenu.getByRole('menuitem').allInnerTexts()).toEqual(['Settings', 'Log Out']);
    await appMenu.getByRole('menuitem', { name: 'Settings' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/user/settings'));
    await context.close();
  });

  it('works its drawn user menu by keyboard before the app is up, and the app does what was chosen', async () => {
    const context = await firstVisit();
    const page = await context.newPage();
    const release = await holdApp(page);
    await page.goto('/user/home');
    const button = page.getByTestId('user-menu');
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? null);
    await button.focus();
    // Enter opens it on its first item; the arrows move and wrap; Home and End jump.
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'User menu (Olivia Owner)' });
    await menu.waitFor();
    expect(await focused()).toBe('Settings');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Log Out');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Settings');
    await page.keyboard.press('End');
    expect(await focused()).toBe('Log Out');
    await page.keyboard.press('Home');
    expect(await focused()).toBe('Settings');
    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    // ArrowUp opens it on the last item; Space opens it from the button too.
    await page.keyboard.press('ArrowUp');
    await menu.waitFor();
    expect(await focused()).toBe('Log Out');
    // Tab closes it and moves on past the button.
    await page.keyboard.press('Tab');
    await menu.waitFor({ state: 'detached' });
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(false);
    await button.focus();
    await page.keyboard.press(' ');
    await menu.waitFor();
    expect(await focused()).toBe('Settings');
    // Choosing Settings before the app is up: the item shows it is busy, and the app goes there.
    await page.keyboard.press('Enter');
    const settings = menu.getByRole('menuitem', { name: 'Settings' });
    expect(await settings.getAttribute('aria-busy')).toBe('true');
    // Visibly: a spinner beside it (styles/global.css).
    expect(await settings.evaluate((el) => getComputedStyle(el, '::after').animationName)).toBe('drawn-busy');
    expect(await drawn(page)).toBe('home');
    await release();
    await page.waitForURL((url) => url.pathname.startsWith('/user/settings'));
    await context.close();
  });

  it('keeps the keyboard in the menu when the app takes over', async () => {
    const context = await firstVisit();
    const page = await context.newPage();
    const release = await holdApp(page);
    await page.goto('/user/home');
    await page.getByTestId('user-menu').focus();
    await page.keyboard.press('ArrowUp');
    await page.getByRole('menu', { name: 'User menu (Olivia Owner)' }).waitFor();
    await release();
    await page.waitForFunction(() => !document.querySelector('#root[data-prerendered]'));
    // The app's open menu, with the focus on the same item.
    const appMenu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) [role="menu"]');
    await appMenu.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? null)).toBe('Log Out');
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
