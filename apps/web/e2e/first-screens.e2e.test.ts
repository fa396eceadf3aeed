import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import { MSG } from '@helix/shared';
import { appUrl, launchBrowser, newPage } from './support/browser.ts';
import { holdApp } from './support/drawn-pages.ts';
import { DEMO, fieldErrors, logIn } from './support/accounts.ts';

/**
 * Issue 18 §14: /signup (drawn at build time), /choose-subscription and the owner's users list (drawn
 * by the API) arrive drawn, and the app starts on first use (src/boot.ts). What the visitor did before
 * the app was up carries over (src/prerender/drawn-home.ts); holding back the app's main chunk keeps a
 * page drawn for as long as a test needs (support/drawn-pages.ts).
 */

const drawn = (page: Page) =>
  page.evaluate(() => document.querySelector('#root')?.getAttribute('data-prerendered') ?? null);
const appTookOver = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('#root[data-prerendered]'));
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

describe('the drawn first screens', () => {
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
      expect(await drawn(page)).toBe('signup');
      expect(await page.title()).toBe('Sign Up · Helix');
      await page.getByLabel('Username', { exact: true }).waitFor();
      await page.getByLabel('I agree to the Terms of Service and Privacy Policy').waitFor();
      await page.getByRole('button', { name: 'Sign Up', exact: true }).waitFor();
      await context.close();
    });

    it('carries what was typed and ticked, and the press on Sign Up, over to the app', async () => {
      const context = await firstVisit();
      const page = await context.newPage();
      const release = await holdApp(page);
      await page.goto('/signup');
      await page.getByLabel('Name', { exact: true }).fill('Drawn Person');
      await page.getByLabel('Email', { exact: true }).fill('drawn.person@example.com');
      await page.getByLabel('I agree to the Terms of Service and Privacy Policy').check();
      await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
      // Held: the browser did not send the drawn form (no fields in the address).
      expect(await drawn(page)).toBe('signup');
      expect(new URL(page.url()).search).toBe('');
      await release();
      await appTookOver(page);
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Drawn Person');
      expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe('drawn.person@example.com');
      expect(await page.getByLabel('I agree to the Terms of Service and Privacy Policy').isChecked()).toBe(
        true,
      );
      // The press was made again on the app's form: it checked what was still missing.
      const errors = await fieldErrors(page);
      expect(errors).toContain(MSG.usernameRequired);
      expect(errors).toContain(MSG.passwordRequired);
      expect(errors).not.toContain(MSG.nameRequired);
      expect(errors).not.toContain(MSG.agreePrivacy);
      await context.close();
    });

    it('is the app for a visitor with parameters in the address', async () => {
      const context = await firstVisit([], { javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto('/signup?from=mail');
      expect(await drawn(page)).toBeNull();
      await context.close();
    });
  });

  describe('/choose-subscription', () => {
    it('is the plan list with the HTML, without any script', async () => {
      const context = await firstVisit([], { javaScriptEnabled: false });
      const page = await context.newPage();
      const answer = await page.goto('/choose-subscription');
      expect(answer?.headers()['cache-control']).toBe('no-cache');
      expect(await drawn(page)).toBe('choose-subscription');
      await plan(page, 'Educator Monthly').waitFor();
      await page.getByText(MSG.saveAnnual).waitFor();
      await context.close();
    });

    it('starts with the plans it came with, and keeps the period picked before the app was up', async () => {
      const context = await firstVisit();
      const page = await context.newPage();
      const release = await holdApp(page);
      let planCalls = 0;
      page.on('request', (r) => {
        if (r.url().includes('/subscription/list')) planCalls += 1;
      });
      await page.goto('/choose-subscription');
      await page.getByText('Annual', { exact: true }).click();
      expect(await drawn(page)).toBe('choose-subscription');
      await release();
      await appTookOver(page);
      await plan(page, 'Educator Yearly').waitFor();
      expect(await plan(page, 'Educator Monthly').count()).toBe(0);
      expect(planCalls).toBe(0);
      await context.close();
    });
  });

  describe("the owner's users list", () => {
    it("is the owner's list with the HTML, without any script", async () => {
      const context = await firstVisit(owner, { javaScriptEnabled: false });
      const page = await context.newPage();
      const answer = await page.goto('/user/settings/users-list');
      expect(answer?.headers()['cache-control']).toBe('no-store');
      expect(await drawn(page)).toBe('users-list');
      await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
      await page.getByRole('cell', { name: DEMO.owner.email }).waitFor();
      await page.getByTestId('total-users').waitFor();
      await context.close();
    });

    it('answers a press on Add Users at once, and the app opens the menu it held', async () => {
      const context = await firstVisit(owner);
      const page = await context.newPage();
      const release = await holdApp(page);
      let listCalls = 0;
      page.on('request', (r) => {
        if (r.url().includes('/user/all')) listCalls += 1;
      });
      await page.goto('/user/settings/users-list');
      const add = page.locator('[data-handover="users-add"]');
      await add.click();
      expect(await add.getAttribute('aria-busy')).toBe('true');
      await release();
      await appTookOver(page);
      await page.getByRole('menuitem', { name: 'Single Invite' }).waitFor();
      // The table started with the answer the page was drawn with.
      expect(listCalls).toBe(0);
      await context.close();
    });

    it("carries the search typed before the app was up over to the app's paged list", async () => {
      const context = await firstVisit(owner);
      const page = await context.newPage();
      const release = await holdApp(page);
      const listCalls: URL[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/user/all')) listCalls.push(new URL(r.url()));
      });
      await page.goto('/user/settings/users-list');
      await page.getByRole('cell', { name: DEMO.owner.email }).waitFor();
      const search = page.getByTestId('users-search').locator('input');
      await search.fill('user@demo');
      expect(await drawn(page)).toBe('users-list');
      await release();
      await appTookOver(page);
      expect(await search.inputValue()).toBe('user@demo');
      // The app's list searched the server for it: the demo user only.
      await page.getByRole('cell', { name: DEMO.owner.email }).waitFor({ state: 'detached' });
      await page.getByRole('cell', { name: DEMO.user.email }).waitFor();
      // Its first page was the drawn answer: every call it made was the search.
      expect(listCalls.length).toBeGreaterThan(0);
      expect(listCalls.map((u) => u.searchParams.get('search'))).toEqual(listCalls.map(() => 'user@demo'));
      await context.close();
    });

    it('keeps presses on controls without a hook (the sort headers) for the app, and closes its menu on any use elsewhere', async () => {
      const context = await firstVisit(owner);
      const page = await context.newPage();
      const release = await holdApp(page);
      const listCalls: URL[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/user/all')) listCalls.push(new URL(r.url()));
      });
      await page.goto('/user/settings/users-list');
      // The drawn user menu closes on a press into a field, the focus moving out, and Escape anywhere.
      const button = page.getByTestId('user-menu');
      const menu = page.locator('.drawn-menu[role="menu"]');
      await button.click();
      await menu.waitFor();
      await page.getByTestId('users-search').locator('input').click();
      await menu.waitFor({ state: 'detached' });
      expect(await button.getAttribute('aria-expanded')).toBe('false');
      await button.click();
      await menu.waitFor();
      await page.keyboard.press('Tab');
      await menu.waitFor({ state: 'detached' });
      await button.click();
      await menu.waitFor();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      // A click on the Email header, then Enter on it: both held (shown busy), in order.
      const email = page.getByRole('columnheader', { name: 'Email' });
      await email.click();
      expect(await email.getAttribute('aria-busy')).toBe('true');
      await email.press('Enter');
      expect(await drawn(page)).toBe('users-list');
      await release();
      await appTookOver(page);
      // Made again on the app's table: by e-mail, then by e-mail descending, asked of the server.
      await expect
        .poll(() => page.getByRole('columnheader', { name: 'Email' }).getAttribute('aria-sort'))
        .toBe('descending');
      expect(listCalls.map((u) => `${u.searchParams.get('sort')} ${u.searchParams.get('order')}`)).toContain(
        'email desc',
      );
      await context.close();
    });

    it('is the app shell for a user without the permission, who goes to /unauthorized', async () => {
      const context = await firstVisit(member);
      const page = await context.newPage();
      await page.goto('/user/settings/users-list');
      expect(await drawn(page)).toBeNull();
      await page.waitForURL((url) => url.pathname === '/unauthorized');
      await context.close();
    });
  });

  for (const [what, path] of [
    ['users list', '/user/settings/users-list'],
    ['subscription page', '/user/settings/subscription'],
  ] as const) {
    it(`opens the drawn ${what}'s own user menu at the first click, and the app keeps it open`, async () => {
      const context = await firstVisit(owner);
      const page = await context.newPage();
      const release = await holdApp(page);
      await page.goto(path);
      expect(await drawn(page)).not.toBeNull();
      const button = page.getByTestId('user-menu');
      await button.click();
      const menu = page.locator('.drawn-menu[role="menu"]');
      await menu.waitFor();
      expect(await button.getAttribute('aria-expanded')).toBe('true');
      expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Settings', 'Log Out']);
      await release();
      await appTookOver(page);
      expect(await page.locator('.drawn-menu').count()).toBe(0);
      const appMenu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) [role="menu"]');
      await appMenu.waitFor();
      expect(await appMenu.getByRole('menuitem').allInnerTexts()).toEqual(['Settings', 'Log Out']);
      await context.close();
    });
  }

  describe('the subscription page', () => {
    it("is the owner's plan, usage and plans with the HTML, without any script", async () => {
      const context = await firstVisit(owner, { javaScriptEnabled: false });
      const page = await context.newPage();
      const answer = await page.goto('/user/settings/subscription');
      expect(answer?.headers()['cache-control']).toBe('no-store');
      expect(await drawn(page)).toBe('subscription');
      await page.getByRole('heading', { name: 'Subscription', level: 1 }).waitFor();
      await page.getByTestId('subscription-summary').waitFor();
      await page.getByTestId('views-usage').waitFor();
      await plan(page, 'Educator Monthly').waitFor();
      // The "Current plan" tag's text reaches WCAG AA (antd's green tag is 3.4:1; ui/theme.ts).
      await page.getByText('Current plan', { exact: true }).waitFor();
      expect(await textContrast(page, '.ant-tag-green')).toBeGreaterThanOrEqual(4.5);
      await context.close();
    });

    it('starts with the answers it came with, and keeps the period picked before the app was up', async () => {
      const context = await firstVisit(owner);
      const page = await context.newPage();
      const release = await holdApp(page);
      const calls: string[] = [];
      page.on('request', (r) => {
        if (/\/(subscriptionplan\/all|subscription\/summary|views\/summary)/.test(r.url()))
          calls.push(r.url());
      });
      await page.goto('/user/settings/subscription');
      await page.getByText('Annual', { exact: true }).click();
      expect(await drawn(page)).toBe('subscription');
      await release();
      await appTookOver(page);
      await plan(page, 'Educator Yearly').waitFor();
      await page.getByTestId('subscription-summary').waitFor();
      expect(calls).toEqual([]);
      await context.close();
    });

    it('is the app shell without a session', async () => {
      const context = await firstVisit();
      const page = await context.newPage();
      await page.goto('/user/settings/subscription');
      expect(await drawn(page)).toBeNull();
      await page.waitForURL((url) => url.pathname.startsWith('/login'));
      await context.close();
    });
  });
});
