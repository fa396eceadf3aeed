import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import { appUrl, launchBrowser, newPage } from './support/browser.ts';
import { holdApp } from './support/hold-app.ts';
import { DEMO, logIn } from './support/accounts.ts';

/**
 * The pages the server renders arrive as the real page and the browser hydrates that markup as soon as
 * the app's code has loaded (src/main.tsx): no second render (a node of the server's markup is still in
 * the document once the app is up), no hydration mismatch reported, and the hydration mark set.
 */

const prerendered = (page: Page) =>
  page.evaluate(() => document.querySelector('#root')?.getAttribute('data-prerendered') ?? null);

/** React's reports of a server markup that did not match the browser's first render. */
const MISMATCH = /hydrat|did not match|server rendered|Minified React error #4(18|19|21|23)/i;

describe('server-rendered pages hydrate', () => {
  let browser: Browser;
  let owner: Cookie[];
  beforeAll(async () => {
    browser = await launchBrowser();
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.owner.email, DEMO.owner.password);
    owner = await context.cookies();
    await context.close();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A first visit (no service worker yet), with a session's cookies or none. */
  async function firstVisit(cookies: Cookie[], width = 1280): Promise<BrowserContext> {
    const context = await browser.newContext({
      baseURL: appUrl(),
      serviceWorkers: 'block',
      viewport: { width, height: 900 },
    });
    if (cookies.length) await context.addCookies(cookies);
    return context;
  }

  const PAGES: { path: string; kind: string; signedIn: boolean; shows: (page: Page) => Promise<unknown> }[] = [
    {
      path: '/login',
      kind: 'login',
      signedIn: false,
      shows: (page) => page.getByRole('button', { name: 'Log In', exact: true }).waitFor(),
    },
    {
      path: '/signup',
      kind: 'signup',
      signedIn: false,
      shows: (page) => page.getByRole('button', { name: 'Sign Up', exact: true }).waitFor(),
    },
    {
      path: '/choose-subscription',
      kind: 'choose-subscription',
      signedIn: false,
      shows: (page) => page.getByRole('region').first().waitFor(),
    },
    {
      path: '/user/home',
      kind: 'home',
      signedIn: true,
      shows: (page) => page.getByRole('heading', { name: 'Models', level: 1 }).waitFor(),
    },
    {
      path: '/user/settings/users-list',
      kind: 'users-list',
      signedIn: true,
      shows: (page) => page.locator('tbody tr.ant-table-row').first().waitFor(),
    },
    {
      path: '/user/settings/subscription',
      kind: 'subscription',
      signedIn: true,
      shows: (page) => page.getByRole('heading', { level: 1 }).first().waitFor(),
    },
  ];

  for (const { path, kind, signedIn, shows } of PAGES) {
    it(`${path} arrives rendered and is hydrated, not rendered again`, async () => {
      const context = await firstVisit(signedIn ? owner : []);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      const release = await holdApp(page);
      await page.goto(path);
      expect(await prerendered(page)).toBe(kind);
      await shows(page);
      // A node of the server's markup, kept from before the app runs.
      await page.evaluate(() => {
        (window as unknown as { serverNode: Element | null }).serverNode =
          document.querySelector('#root')!.firstElementChild!.lastElementChild ??
          document.querySelector('#root')!.firstElementChild;
      });
      await release();
      await page.waitForFunction(() => document.querySelector('#root')?.getAttribute('data-hydrated') === 'true');
      expect(await page.evaluate(() => performance.getEntriesByName('helix:hydrated').length)).toBe(1);
      expect(await page.evaluate(() => performance.getEntriesByName('helix:rendered').length)).toBe(0);
      expect(
        await page.evaluate(() => {
          const node = (window as unknown as { serverNode: Element | null }).serverNode;
          return node !== null && node.isConnected;
        }),
      ).toBe(true);
      await shows(page);
      expect(errors.filter((e) => MISMATCH.test(e))).toEqual([]);
      await context.close();
    });
  }
});
