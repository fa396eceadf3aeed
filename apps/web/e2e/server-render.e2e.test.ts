import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { createTenant, createUser, PASSWORD } from '@helix/server/testing/factories';
import { appUrl, launchBrowser, newPage } from './support/browser.ts';
import { holdApp } from './support/hold-app.ts';
import { DEMO, logIn } from './support/accounts.ts';

/**
 * The pages the server renders arrive as the real page and the browser hydrates that markup as soon as
 * the app's code has loaded (src/main.tsx): no second render (a node of the server's markup is still in
 * the document once the app is up), no hydration mismatch reported, and the hydration mark set.
 */

const serverRendered = (page: Page) =>
  page.evaluate(() => document.querySelector('#root')?.getAttribute('data-server-rendered') ?? null);

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

  const PAGES: { path: string; kind: string; signedIn: boolean; shows: (page: Page) => Promise<unknown> }[] =
    [
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
      expect(await serverRendered(page)).toBe(kind);
      await shows(page);
      // A node of the server's markup, kept from before the app runs.
      await page.evaluate(() => {
        (window as unknown as { serverNode: Element | null }).serverNode =
          document.querySelector('#root')!.firstElementChild!.lastElementChild ??
          document.querySelector('#root')!.firstElementChild;
      });
      // The page's own styles, marked: hydrating adds no stylesheet to them (antd's theme variables and
      // icons' styles included), so the page's styles are not computed again in the hydration's commit.
      await page.evaluate(() => {
        document.querySelectorAll('style').forEach((style) => (style.dataset.sent = 'true'));
      });
      await release();
      await page.waitForFunction(
        () => document.querySelector('#root')?.getAttribute('data-hydrated') === 'true',
      );
      expect(
        await page.evaluate(() =>
          Array.from(document.querySelectorAll('style:not([data-sent])'))
            // antd's table measures the scrollbar's width with a style of its own.
            .filter((s) => !s.getAttribute('rc-util-key')?.startsWith('rc-scrollbar-measure'))
            .filter((s) => (s.textContent ?? '').trim() !== '')
            .map((s) => s.outerHTML.slice(0, 160)),
        ),
      ).toEqual([]);
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
      // The server's styles carry antd's cache map: the browser's antd injects none of the styles it
      // lists again (src/server-render/render-route.server.tsx).
      const styles = await page.evaluate(() => {
        const map = Array.from(document.querySelectorAll('style'))
          .map((s) => /\.data-ant-cssinjs-cache-path\{content:"([^"]*)"/.exec(s.textContent ?? '')?.[1])
          .find(Boolean);
        const sent = new Set((map ?? '').split(';').map((entry) => entry.split(':').pop()));
        const injected = Array.from(document.querySelectorAll('style[data-css-hash]')).map((s) =>
          s.getAttribute('data-css-hash'),
        );
        return { listed: map ? sent.size : 0, again: injected.filter((hash) => sent.has(hash ?? '')) };
      });
      expect(styles.listed).toBeGreaterThan(0);
      expect(styles.again).toEqual([]);
      await context.close();
    });
  }

  it('what a visitor types into the server-rendered login before hydration is what the form sends', async () => {
    const context = await firstVisit([]);
    const page = await context.newPage();
    const release = await holdApp(page);
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).fill(DEMO.user.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO.user.password);
    await page.getByLabel('Remember me').check();
    expect(await serverRendered(page)).toBe('login');
    await release();
    await page.waitForFunction(
      () => document.querySelector('#root')?.getAttribute('data-hydrated') === 'true',
    );
    // The fields still show what was typed, and the form has it: Log In signs in.
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(DEMO.user.email);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 20_000 });
    await context.close();
  });

  it('Log In pressed before hydration signs in once the page is hydrated, once', async () => {
    const context = await firstVisit([]);
    const page = await context.newPage();
    const logins: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/user/login')) logins.push(r.url());
    });
    const release = await holdApp(page);
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).fill(DEMO.user.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO.user.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    // The browser's own submission was held: the same page, not hydrated, nothing sent.
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).search).toBe('');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(DEMO.user.email);
    expect(logins).toEqual([]);
    await release();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 20_000 });
    expect(logins).toHaveLength(1);
    await context.close();
  });

  it("the users list's answers arrive as the query cache's dehydrated state: the app asks none again", async () => {
    const context = await firstVisit(owner);
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/user/all')) asked.push(r.url());
    });
    const answer = await page.goto('/user/settings/users-list');
    const html = (await answer?.text()) ?? '';
    // renderPage's prefetch (src/server-render/route-prefetch.ts), asked of the API with this session.
    const data = JSON.parse(
      /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(html)![1]!,
    ) as {
      queries: { queries: { queryKey: unknown[]; state: { data: { data: { rows: unknown[] } } } }[] };
    };
    const list = data.queries.queries.find(
      (q) => q.queryKey[0] === 'server-list' && q.queryKey[1] === 'tenant-users',
    );
    expect(list?.state.data.data.rows.length).toBeGreaterThan(0);
    await page.waitForFunction(
      () => document.querySelector('#root')?.getAttribute('data-hydrated') === 'true',
    );
    await page.locator('tbody tr.ant-table-row').first().waitFor();
    expect(asked).toEqual([]);
    await context.close();
  });
});

/** Where the settings page's parts are: the layout, as a phone, tablet or laptop shows it. */
const layoutOf = (page: Page) =>
  page.evaluate(() => {
    const box = (selector: string) => {
      const r = document.querySelector(selector)?.getBoundingClientRect();
      return r ? { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width) } : null;
    };
    return {
      nav: box('.settings-nav'),
      content: box('.settings-content'),
      brand: box('[data-testid="header-brand"]'),
      firstRow: box('tbody tr.ant-table-row'),
      // Cards on a phone: the rows laid out as flex boxes, the table's head hidden.
      rows: getComputedStyle(document.querySelector('tbody tr.ant-table-row')!).display,
      head: getComputedStyle(document.querySelector('thead')!).display,
      pageWidth: document.documentElement.scrollWidth,
    };
  });

describe("the users list's first paint is its final layout, with the school's brand", () => {
  let browser: Browser;
  let db: Db;
  let owner: Cookie[];
  const id = randomBytes(3).toString('hex');
  const brand = `school-${id}`;
  const school = `Rendered School ${id}`;
  beforeAll(async () => {
    db = createTestDb(inject('databaseUrl'));
    const plan = await db.plan.findUniqueOrThrow({ where: { id: 8 } });
    const tenant = await createTenant(db, { plan, name: school });
    await db.tenant.update({ where: { id: tenant.id }, data: { customBrandName: brand } });
    const made = await createUser(db, {
      tenant,
      name: `Rita Owner ${id}`,
      email: `owner.rendered.${id}@example.com`,
      isOwner: true,
      roles: ['Admin'],
    });
    browser = await launchBrowser();
    const { context, page } = await newPage(browser);
    await logIn(page, made.email, PASSWORD);
    owner = await context.cookies();
    await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await db?.$disconnect();
  });

  for (const width of [390, 820, 1280]) {
    it(`at ${width} px: the same layout with scripts blocked and after hydration`, async () => {
      const options = {
        baseURL: appUrl(),
        serviceWorkers: 'block' as const,
        viewport: { width, height: 844 },
      };
      const blocked = await browser.newContext({ ...options, javaScriptEnabled: false });
      await blocked.addCookies(owner);
      const still = await blocked.newPage();
      await still.goto('/user/settings/users-list');
      expect(await serverRendered(still)).toBe('users-list');
      // The school's brand in the header: its name and logo, not Helix's.
      expect(await still.locator('header').innerText()).toContain(school);
      await still.getByTestId('header-brand').locator('img').waitFor();
      const unhydrated = await layoutOf(still);
      await blocked.close();

      const live = await browser.newContext(options);
      await live.addCookies(owner);
      const page = await live.newPage();
      await page.goto('/user/settings/users-list');
      await page.waitForFunction(
        () => document.querySelector('#root')?.getAttribute('data-hydrated') === 'true',
      );
      expect(await page.getByTestId('header-brand').innerText()).toContain(school);
      expect(await layoutOf(page)).toEqual(unhydrated);
      await live.close();

      // Nothing wider than the screen; on a phone and a tablet the menu is a bar above the list.
      expect(unhydrated.pageWidth).toBeLessThanOrEqual(width);
      if (width < 500) {
        // A phone: the users as cards, and no sidebar (the settings menu is a bar above them).
        expect(unhydrated.rows).toBe('flex');
        expect(unhydrated.head).toBe('none');
      } else {
        expect(unhydrated.rows).toBe('table-row');
      }
      if (width < 768) {
        expect(unhydrated.content!.x).toBeLessThan(40);
        expect(unhydrated.content!.y).toBeGreaterThan(unhydrated.nav!.y);
      } else {
        expect(unhydrated.content!.x).toBeGreaterThan(unhydrated.nav!.x + 200);
      }
    });
  }

  it('on a phone, the settings bar shows the current section, also when it is past the screen', async () => {
    const context = await browser.newContext({
      baseURL: appUrl(),
      serviceWorkers: 'block',
      viewport: { width: 390, height: 844 },
    });
    await context.addCookies(owner);
    const page = await context.newPage();
    const current = page.locator('.settings-nav .settings-link.is-selected');
    const insideScreen = async () => {
      const box = await current.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= 390;
    };
    // The last sections of the owner's menu sit past 390 px in the bar's own order.
    for (const path of ['/user/settings/audit-log', '/user/settings/links', '/user/settings/profile']) {
      await page.goto(path);
      await page.waitForFunction(
        () =>
          document.querySelector('#root')?.getAttribute('data-hydrated') === 'true' ||
          document.querySelector('#root')?.getAttribute('data-rendered') === 'true',
      );
      await current.waitFor();
      await expect.poll(insideScreen).toBe(true);
    }
    // ... and after a move within the app (a click the test does not scroll into view first).
    await page
      .locator('.settings-nav')
      .getByRole('link', { name: 'Audit log' })
      .evaluate((link) => (link as HTMLElement).click());
    await page.waitForURL((url) => url.pathname === '/user/settings/audit-log');
    await expect.poll(insideScreen).toBe(true);
    await context.close();
  });

  it("/login/{brand} with scripts blocked shows the school's look, and the same once hydrated", async () => {
    const lookOf = (page: Page) =>
      page.evaluate(() => ({
        name: document.querySelector('[data-testid="brand-name"]')?.textContent ?? null,
        logo:
          document.querySelector<HTMLImageElement>('[data-testid="brand-logo"]')?.getAttribute('src') ?? null,
        background: getComputedStyle(document.querySelector('.auth-layout')!).backgroundColor,
        brand: document.querySelector('.auth-layout')?.getAttribute('data-brand') ?? null,
      }));
    const options = {
      baseURL: appUrl(),
      serviceWorkers: 'block' as const,
      viewport: { width: 390, height: 844 },
    };
    const blocked = await browser.newContext({ ...options, javaScriptEnabled: false });
    const still = await blocked.newPage();
    await still.goto(`/login/${brand}`);
    expect(await serverRendered(still)).toBe('login');
    const unhydrated = await lookOf(still);
    expect(unhydrated.brand).toBe(brand);
    expect(unhydrated.name).toBe(school);
    expect(unhydrated.logo).not.toBeNull();
    await blocked.close();

    const live = await browser.newContext(options);
    const page = await live.newPage();
    await page.goto(`/login/${brand}`);
    await page.waitForFunction(
      () => document.querySelector('#root')?.getAttribute('data-hydrated') === 'true',
    );
    expect(await lookOf(page)).toEqual(unhydrated);
    await live.close();
  });
});
