import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, logIn } from './support/accounts.ts';
import { seriousViolations } from './support/axe.ts';
import { sql } from './support/billing.ts';
import { launchBrowser } from './support/browser.ts';
import { settle } from './support/settle.ts';

/**
 * Every screen of the portal, as a guest, a school's owner and a platform admin, on the devices it is
 * used on, each page drawn once per device:
 * - a touch phone held upright (390 px): no page wider than the screen, and every control a finger
 *   must hit at least 44 x 44 px (owner and admin);
 * - a tablet held upright (820 px, the classroom's iPad Air): no page wider than the screen, and no
 *   serious or critical axe-core violation (docs/accessibility.md);
 * - a laptop (1280 px): axe on the first page, where the layout shows its side menu.
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

/** The page at `path`, once it has drawn its data. */
async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await settle(page);
}

/** The page's width beyond the viewport (0: nothing to scroll sideways). */
const overflowOf = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

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
        violations.push(...(await seriousViolations(page, path)));
      }
      // The laptop's layout (side menu open) around the first page.
      await page.setViewportSize(LAPTOP);
      await visit(page, PAGES[who][0]);
      violations.push(...(await seriousViolations(page, `${PAGES[who][0]} at ${LAPTOP.width} px`)));
      await context.close();
      expect(wider).toEqual([]);
      expect(violations).toEqual([]);
    },
    240_000,
  );
});
