import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, logIn } from './support/accounts.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser } from './support/browser.ts';
import { settle } from './support/settle.ts';
import { seedTableRows } from './support/table-rows.ts';

/**
 * Every screen of the portal, as a guest, a school's owner and a platform admin, on the devices it is
 * used on, each page drawn once per device:
 * - a touch phone held upright (390 px): no page wider than the screen, and every control a finger
 *   must hit at least 44 x 44 px (owner and admin);
 * - a tablet held upright (820 px, the classroom's iPad Air): no page wider than the screen, and no
 *   serious or critical axe-core violation (docs/accessibility.md);
 * - a laptop (1280 px): axe on the first page, where the layout shows its side menu.
 * On a phone and a tablet every table is as wide as its place at most (cards on a phone, secondary
 * columns folded into the row's details on a tablet: ui/responsive-table.tsx), every control of its
 * rows inside the screen; on a laptop the Links table (the widest) fits beside the settings menu.
 * The viewer modal and the share and embed pages: accessibility.e2e.test.ts.
 */
const PHONE = { width: 390, height: 844 };
const TABLET = { width: 820, height: 1180 };
const LAPTOP = { width: 1280, height: 860 };

const PAGES = {
  guest: [
    '/login',
    '/signup',
    '/forgot-password',
    '/subscription/plans',
    '/authentication/reset-password?token=not-a-token',
    '/invitation?token=not-a-token',
    '/no-such-page',
  ],
  owner: [
    '/user/home',
    '/user/settings/profile',
    '/user/settings/branding',
    '/user/settings/subscription',
    '/user/settings/billing-history',
    '/user/settings/links',
    '/user/settings/audit-log',
    '/user/settings/lti',
    '/user/settings/users-list',
    '/user/settings/users-list/bulk-user-invite',
    '/unauthorized',
  ],
  admin: [
    '/users',
    '/users/add-user',
    '/models',
    '/stats',
    '/roles',
    '/permissions',
    '/news-letter',
    '/support',
    '/audit-log',
  ],
} as const;

type Who = keyof typeof PAGES;

/** Pages whose table has rows here (the data the suite seeds below): an empty table proves nothing. */
const TABLES_WITH_ROWS: readonly string[] = [
  '/user/settings/links',
  '/user/settings/audit-log',
  '/user/settings/lti',
  '/user/settings/users-list',
  '/users',
  '/roles',
  '/permissions',
  '/news-letter',
  '/support',
  '/audit-log',
];

/** The page at `path`, once it has drawn its data. */
async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await settle(page);
}

/** The page's width beyond the viewport (0: nothing to scroll sideways). */
const overflowOf = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Tables wider than the window, and controls of a table's rows (buttons, links, fields) not wholly
 * inside it (hidden ones, in a folded column, aside); with the number of rows seen.
 */
function tableSpill(page: Page): Promise<{ rows: number; outside: string[] }> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const outside: string[] = [];
    for (const table of Array.from(document.querySelectorAll('table'))) {
      const r = table.getBoundingClientRect();
      if (r.width > 0 && (r.left < 0 || r.right > width))
        outside.push(`a table at ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    const controls = document.querySelectorAll(
      'tbody button, tbody a, tbody input, tbody [role="combobox"], tbody .ant-select',
    );
    for (const el of Array.from(controls)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.left < 0 || r.right > width) {
        const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? el.tagName;
        outside.push(`"${name}" at ${Math.round(r.left)}..${Math.round(r.right)}`);
      }
    }
    return { rows: document.querySelectorAll('tbody tr.ant-table-row').length, outside };
  });
}

/** Controls a finger must hit that are smaller than 44 x 44 px. */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('button, [role="button"], a.ant-btn, .ant-pagination-item'))
      // The branding page's preview draws a login button as a picture; a number field's arrows are
      // extras (the field itself takes the number).
      .filter((el) => !el.closest('.branding-preview, .ant-input-number'))
      .filter((el) => {
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        return (
          r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && (r.width < 44 || r.height < 44)
        );
      })
      .map((el) => {
        const r = el.getBoundingClientRect();
        const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? el.className;
        return `"${name}" ${Math.round(r.width)}x${Math.round(r.height)}`;
      }),
  );
}

describe('every screen on a phone, a tablet and a laptop', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    await seedTableRows();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The table's spill on the page at `path` (tableSpill), said per width; rows required where seeded. */
  async function spillOf(page: Page, path: string, width: number): Promise<string[]> {
    // A loaded machine may take longer than settle() waits for the rows.
    if (TABLES_WITH_ROWS.includes(path))
      await page.waitForSelector('tbody tr.ant-table-row', { timeout: 20_000 }).catch(() => undefined);
    const { rows, outside } = await tableSpill(page);
    const found = outside.map((what) => `${path} at ${width} px: ${what}`);
    if (TABLES_WITH_ROWS.includes(path) && rows === 0) found.push(`${path} at ${width} px: no rows to check`);
    return found;
  }

  async function signedIn(who: Who, options: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> {
    const context = await browser.newContext({ baseURL: inject('apiUrl'), ...options });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    if (who !== 'guest') await logIn(page, DEMO[who].email, DEMO[who].password);
    return context;
  }

  it.each(Object.keys(PAGES) as Who[])(
    '%s pages fit a touch phone, with targets a finger can hit',
    async (who) => {
      const context = await signedIn(who, { viewport: PHONE, hasTouch: true, isMobile: true });
      const page = context.pages()[0]!;
      const wider: string[] = [];
      const small: string[] = [];
      for (const path of PAGES[who]) {
        await visit(page, path);
        const overflow = await overflowOf(page);
        if (overflow > 0) wider.push(`${path} at ${PHONE.width} px: ${overflow} px too wide`);
        wider.push(...(await spillOf(page, path, PHONE.width)));
        if (who !== 'guest') for (const target of await smallTargets(page)) small.push(`${path}: ${target}`);
      }
      await context.close();
      expect(wider).toEqual([]);
      expect(small).toEqual([]);
    },
    240_000,
  );

  it.each(Object.keys(PAGES) as Who[])(
    '%s pages fit a tablet and have no serious or critical accessibility violation',
    async (who) => {
      const context = await signedIn(who, { viewport: TABLET });
      const page = context.pages()[0]!;
      const wider: string[] = [];
      const violations: string[] = [];
      for (const path of PAGES[who]) {
        await visit(page, path);
        const overflow = await overflowOf(page);
        if (overflow > 0) wider.push(`${path} at ${TABLET.width} px: ${overflow} px too wide`);
        wider.push(...(await spillOf(page, path, TABLET.width)));
        violations.push(...(await seriousViolations(page, path)));
      }
      // The laptop's layout (side menu open) around the first page.
      await page.setViewportSize(LAPTOP);
      await visit(page, PAGES[who][0]);
      violations.push(...(await seriousViolations(page, `${PAGES[who][0]} at ${LAPTOP.width} px`)));
      if (who === 'owner') {
        // The Links table beside the settings menu: no wider than its place, its actions on screen.
        await visit(page, '/user/settings/links');
        wider.push(...(await spillOf(page, '/user/settings/links', LAPTOP.width)));
        const fits = await page.evaluate(() => {
          const table = document.querySelector('.links-page table')!.getBoundingClientRect();
          const place = document.querySelector('.links-page .rt')!.getBoundingClientRect();
          return table.right <= place.right;
        });
        if (!fits)
          wider.push(`/user/settings/links at ${LAPTOP.width} px: the table is wider than its place`);
      }
      await context.close();
      expect(wider).toEqual([]);
      expect(violations).toEqual([]);
    },
    240_000,
  );
});
