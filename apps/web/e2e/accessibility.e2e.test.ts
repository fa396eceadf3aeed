/**
 * axe-core on every page of the portal, as a guest, a school's owner and a platform admin, plus the
 * share and embed pages with the viewer frame and the portal's viewer modal: no serious or critical
 * violation anywhere (docs/accessibility.md). One browser; each role signs in once.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, logIn } from './support/accounts.ts';
import { seriousViolations as violations } from './support/axe.ts';
import { demoEmbedToken } from './support/demo-link.ts';
import { settle } from './support/settle.ts';
import { launchBrowser } from './support/browser.ts';

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

/** The viewer frame inside the page, once it has drawn its model. */
async function viewerReady(page: Page): Promise<void> {
  const viewerOrigin = new URL(inject('viewerUrl')).origin;
  await expect
    .poll(() => page.frames().some((f) => f.url().startsWith(viewerOrigin)), { timeout: 30_000 })
    .toBe(true);
  const frame = page.frames().find((f) => f.url().startsWith(viewerOrigin))!;
  await frame.waitForFunction(() => document.body.dataset.viewerState === 'ready', null, { timeout: 45_000 });
}

describe('accessibility (axe-core)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(Object.keys(PAGES) as Who[])(
    '%s pages have no serious or critical violations',
    async (who) => {
      const context = await browser.newContext({
        baseURL: inject('apiUrl'),
        viewport: { width: 1280, height: 860 },
      });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      if (who !== 'guest') await logIn(page, DEMO[who].email, DEMO[who].password);
      const found: string[] = [];
      for (const path of PAGES[who]) {
        await page.goto(path);
        await settle(page);
        found.push(...(await violations(page, path)));
      }
      if (who === 'owner') {
        // The portal's viewer modal, with the viewer frame in it.
        await page.goto('/user/home');
        await settle(page);
        await page
          .getByRole('button', { name: /^Open / })
          .first()
          .click();
        await page.getByRole('dialog').waitFor();
        await viewerReady(page);
        found.push(...(await violations(page, 'viewer modal')));
      }
      await context.close();
      expect(found).toEqual([]);
    },
    180_000,
  );

  it('the share and embed pages, viewer included, have no serious or critical violations', async () => {
    const token = await demoEmbedToken([
      'info',
      'layers',
      'table_of_content',
      'zoom_controls',
      'labels',
      'labels_ui',
    ]);
    const context = await browser.newContext({
      baseURL: inject('apiUrl'),
      viewport: { width: 1280, height: 860 },
    });
    const page = await context.newPage();
    const found: string[] = [];
    for (const path of [`/share/${token}`, `/embed/${token}`]) {
      await page.goto(path);
      await viewerReady(page);
      found.push(...(await violations(page, path.replace(token, '<token>'))));
    }
    // A link that no longer works shows its message page.
    await page.goto('/share/not-a-real-token');
    await settle(page);
    found.push(...(await violations(page, '/share/<unknown token>')));
    await context.close();
    expect(found).toEqual([]);
  }, 120_000);
});
