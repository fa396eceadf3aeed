import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, logIn } from './support/accounts.ts';
import { sql } from './support/billing.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { settle } from './support/settle.ts';

/** A phone held upright and a tablet (iPad Air) held upright. */
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 820, height: 1180 },
];

const PAGES = {
  guest: ['/login', '/signup', '/forgot-password', '/subscription/plans'],
  owner: [
    '/user/home',
    '/user/settings/profile',
    '/user/settings/branding',
    '/user/settings/subscription',
    '/user/settings/billing-history',
    '/user/settings/links',
    '/user/settings/users-list',
    '/user/settings/users-list/bulk-user-invite',
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
  ],
} as const;

/** The page's width beyond the viewport (0: nothing to scroll sideways), once it has drawn its data. */
async function overflowOf(page: Page, path: string): Promise<number> {
  await page.goto(path);
  await settle(page);
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Every screen on a phone and a tablet: no page is wider than the viewport. */
describe('every screen fits a phone and a tablet', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    // Pages as a busy platform sees them, whichever tests ran before: a support request to expand and
    // more users than one page of the users and permissions lists holds.
    await sql(
      `INSERT INTO "SupportRequest" ("tenantId", "userId", subject, message, "targetHours", "updatedAt")
       SELECT "tenantId", id, 'Screens check', 'A request to expand on a phone.', 24, now()
       FROM "User" WHERE email = $1`,
      [DEMO.owner.email],
    );
    await sql(
      `INSERT INTO "User" ("tenantId", name, "userName", email, "updatedAt")
       SELECT "tenantId", 'Screens pupil ' || n, 'screens-pupil-' || n, 'screens-pupil-' || n || '@example.com', now()
       FROM "User", generate_series(1, 25) AS n WHERE email = $1
       ON CONFLICT DO NOTHING`,
      [DEMO.owner.email],
    );
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(Object.keys(PAGES) as Array<keyof typeof PAGES>)(
    '%s pages are no wider than 390 or 820 px',
    async (who) => {
      const { context, page } = await newPage(browser);
      if (who !== 'guest') await logIn(page, DEMO[who].email, DEMO[who].password);
      const wider: string[] = [];
      for (const size of WIDTHS) {
        await page.setViewportSize(size);
        for (const path of PAGES[who]) {
          const overflow = await overflowOf(page, path);
          if (overflow > 0) wider.push(`${path} at ${size.width} px: ${overflow} px too wide`);
        }
      }
      await context.close();
      expect(wider).toEqual([]);
    },
  );

  /** Controls a finger must hit: every visible one at least 44 x 44 px. */
  async function smallTargets(page: Page, path: string): Promise<string[]> {
    await overflowOf(page, path);
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

  it.each(['owner', 'admin'] as const)('on a touch phone every %s control is at least 44 px', async (who) => {
    const context = await browser.newContext({
      baseURL: inject('apiUrl'),
      viewport: WIDTHS[0],
      hasTouch: true,
      isMobile: true,
    });
    const page = await context.newPage();
    await logIn(page, DEMO[who].email, DEMO[who].password);
    const small: string[] = [];
    for (const path of PAGES[who]) {
      for (const target of await smallTargets(page, path)) small.push(`${path}: ${target}`);
    }
    await context.close();
    expect(small).toEqual([]);
  });
});
