/**
 * axe-core on the viewer where it is shown: the portal's viewer modal and the share and embed pages
 * with the viewer frame: no serious or critical violation (docs/accessibility.md). Every other page is
 * checked by screens.e2e.test.ts, on a tablet and a laptop, as each role.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, logIn } from './support/accounts.ts';
import { seriousViolations as violations } from './support/axe.ts';
import { demoEmbedToken } from './support/demo-link.ts';
import { settle } from './support/settle.ts';
import { launchBrowser } from './support/browser.ts';

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

  it("the viewer modal of a school's home page has no serious or critical violations", async () => {
    const context = await browser.newContext({
      baseURL: inject('apiUrl'),
      viewport: { width: 1280, height: 860 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await logIn(page, DEMO.owner.email, DEMO.owner.password);
    await page.goto('/user/home');
    await settle(page);
    await page
      .getByRole('button', { name: /^Open / })
      .first()
      .click();
    await page.getByRole('dialog').waitFor();
    await viewerReady(page);
    const found = await violations(page, 'viewer modal');
    await context.close();
    expect(found).toEqual([]);
  }, 120_000);

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
