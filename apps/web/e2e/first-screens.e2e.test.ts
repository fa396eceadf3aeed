import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import { MSG } from '@helix/shared';
import { appUrl, launchBrowser, newPage } from './support/browser.ts';
import { DEMO, logIn } from './support/accounts.ts';

/**
 * /signup (rendered at build time), /choose-subscription, the owner's users list and the subscription
 * page (rendered by the API with the web app's server renderer) arrive as the real page, before and
 * without any script; the app hydrates them as soon as its code has loaded (server-render.e2e.test.ts).
 */

const serverRendered = (page: Page) =>
  page.evaluate(() => document.querySelector('#root')?.getAttribute('data-server-rendered') ?? null);
const plan = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** The WCAG contrast ratio of an element's text colour on its background (both opaque rgb()). */
const textContrast = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const style = getComputedStyle(el);
      const luminance = (rgb: string) => {
        const [r, g, b] = (rgb.match(/\d+/g) ?? []).slice(0, 3).map((n) => {
          const v = Number(n) / 255;
          return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const [hi, lo] = [luminance(style.color), luminance(style.backgroundColor)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    });

describe('the server-rendered first screens', () => {
  let browser: Browser;
  /** The demo owner's and the demo user's session cookies, from a sign-in through the form. */
  let owner: Cookie[];
  let member: Cookie[];
  beforeAll(async () => {
    browser = await launchBrowser();
    for (const [who, set] of [
      [DEMO.owner, (c: Cookie[]) => (owner = c)],
      [DEMO.user, (c: Cookie[]) => (member = c)],
    ] as const) {
      const { context, page } = await newPage(browser);
      await logIn(page, who.email, who.password);
      set(await context.cookies());
      await context.close();
    }
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A first visit (no service worker yet), with a session's cookies or none. */
  async function firstVisit(
    cookies: Cookie[] = [],
    options: { javaScriptEnabled?: boolean } = {},
  ): Promise<BrowserContext> {
    const context = await browser.newContext({ baseURL: appUrl(), serviceWorkers: 'block', ...options });
    if (cookies.length) await context.addCookies(cookies);
    return context;
  }

  describe('/signup', () => {
    it('is the form with the HTML, without any script', async () => {
      const context = await firstVisit([], { javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto('/signup');
      expect(await serverRendered(page)).toBe('signup');
      expect(await page.title()).toBe('Sign Up · Helix');
      await page.getByLabel('Username', { exact: true }).waitFor();
      await page.getByLabel('I agree to the Terms of Service and Privacy Policy').waitFor();
      await page.getByRole('button', { name: 'Sign Up', exact: true }).waitFor();
      await context.close();
    });

    it('is the app for a visitor with parameters in the address', async () => {
      const context = await firstVisit([], { javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto('/signup?from=mail');
      expect(await serverRendered(page)).toBeNull();
      await context.close();
    });
  });

  describe('/choose-subscription', () => {
    it('is the plan list with the HTML, without any script', async () => {
      const context = await firstVisit([], { javaScriptEnabled: false });
      const page = await context.newPage();
      const answer = await page.goto('/choose-subscription');
      expect(answer?.headers()['cache-control']).toBe('no-cache');
      expect(await serverRendered(page)).toBe('choose-subscription');
      await plan(page, 'Educator Monthly').waitFor();
      await page.getByText(MSG.saveAnnual).waitFor();
      await context.close();
    });
  });

  describe("the owner's users list", () => {
    it("is the owner's list with the HTML, without any script", async () => {
      const context = await firstVisit(owner, { javaScriptEnabled: false });
      const page = await context.newPage();
      const answer = await page.goto('/user/settings/users-list');
      expect(answer?.headers()['cache-control']).toBe('no-store');
      expect(await serverRendered(page)).toBe('users-list');
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await page.getByRole('cell', { name: DEMO.owner.email }).waitFor();
      await page.getByTestId('total-users').waitFor();
      await context.close();
    });

    it('is the app shell for a user without the permission, who goes to /unauthorized', async () => {
      const context = await firstVisit(member);
      const page = await context.newPage();
      await page.goto('/user/settings/users-list');
      expect(await serverRendered(page)).toBeNull();
      await page.waitForURL((url) => url.pathname === '/unauthorized');
      await context.close();
    });
  });

  describe('the subscription page', () => {
    it("is the owner's plan, usage and plans with the HTML, without any script", async () => {
      const context = await firstVisit(owner, { javaScriptEnabled: false });
      const page = await context.newPage();
      const answer = await page.goto('/user/settings/subscription');
      expect(answer?.headers()['cache-control']).toBe('no-store');
      expect(await serverRendered(page)).toBe('subscription');
      await page.getByRole('heading', { name: 'Subscription', level: 1 }).waitFor();
      await page.getByTestId('subscription-summary').waitFor();
      await page.getByTestId('views-usage').waitFor();
      await plan(page, 'Educator Monthly').waitFor();
      // The "Current plan" tag's text reaches WCAG AA (antd's green tag is 3.4:1; ui/theme.ts).
      await page.getByText('Current plan', { exact: true }).waitFor();
      expect(await textContrast(page, '.ant-tag-green')).toBeGreaterThanOrEqual(4.5);
      await context.close();
    });

    it('is the app shell without a session', async () => {
      const context = await firstVisit();
      const page = await context.newPage();
      await page.goto('/user/settings/subscription');
      expect(await serverRendered(page)).toBeNull();
      await page.waitForURL((url) => url.pathname.startsWith('/login'));
      await context.close();
    });
  });
});
