import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO, logIn } from './support/accounts.ts';
import { launchBrowser } from './support/browser.ts';
import { settle } from './support/settle.ts';
import { seedTableRows } from './support/table-rows.ts';

/**
 * Every table page on a phone (390 px, each row a card) and a tablet held upright (820 px, secondary
 * columns folded into the row's details): the document no wider than the window, no table wider than
 * it, and every control of every row (its actions first) wholly inside the window, by the control's
 * box, so a finger reaches it without scrolling sideways. The models catalogue is a grid of cards:
 * the same for each card's buttons. (ui/responsive-table.tsx; screens.e2e.test.ts measures every page.)
 */
const DEVICES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, touch: true },
  { name: 'tablet', viewport: { width: 820, height: 1180 }, touch: false },
] as const;

interface TablePage {
  path: string;
  /** The rows to look at: table rows, or the catalogue's cards. */
  rows: string;
  /** Every row with actions has them: at least one row must show a control in its actions. */
  actions: boolean;
}

const table = (path: string, actions: boolean): TablePage => ({
  path,
  rows: 'tbody tr.ant-table-row',
  actions,
});

const PAGES: Record<'owner' | 'admin', TablePage[]> = {
  owner: [
    table('/user/settings/users-list', true),
    table('/user/settings/links', true),
    table('/user/settings/audit-log', false),
    table('/user/settings/lti', true),
    table('/user/settings/billing-history', true),
    table('/stats', false),
  ],
  admin: [
    table('/users', true),
    table('/permissions', true),
    table('/roles', true),
    table('/news-letter', false),
    table('/support', false),
    table('/audit-log', false),
    table('/stats', false),
    { path: '/models', rows: '.model-card', actions: true },
  ],
};

/** What does not fit at this width: the document, a table, a row's control (by its box), a row without actions. */
async function misfits(page: Page, at: TablePage, width: number): Promise<string[]> {
  const found: string[] = [];
  const where = `${at.path} at ${width} px`;
  const rows = page.locator(at.rows);
  await rows.first().waitFor({ timeout: 30_000 });
  await settle(page);

  const documentWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  if (documentWidth > width) found.push(`${where}: the document is ${documentWidth} px wide`);
  for (const box of await page
    .locator('table')
    .evaluateAll((tables) =>
      tables
        .map((t) => t.getBoundingClientRect())
        .map((r) => ({ left: r.left, right: r.right, width: r.width })),
    )) {
    if (box.width > 0 && (box.left < 0 || box.right > width))
      found.push(`${where}: a table at ${Math.round(box.left)}..${Math.round(box.right)}`);
  }

  let withActions = 0;
  const count = Math.min(await rows.count(), 10);
  for (let i = 0; i < count; i += 1) {
    const row = rows.nth(i);
    // A row's menu button counts, not the items of its menu (drawn when it is opened).
    const actions = row.locator(
      'td.rt-actions button:not(.popover-menu-item), td.rt-actions a:not(.popover-menu-item), .model-card-actions button',
    );
    if ((await actions.count()) > 0) withActions += 1;
    // Every action must be drawn (not folded away); any other control of the row, where it is drawn.
    for (const control of await actions.all()) {
      if (!(await control.isVisible())) found.push(`${where}: row ${i + 1} hides an action`);
    }
    for (const control of await row.locator('button, a, input, .ant-select').all()) {
      if ((await control.getAttribute('role')) === 'menuitem') continue;
      const box = await control.boundingBox();
      if (!box || box.width === 0 || box.height === 0) continue;
      if (box.x < 0 || box.x + box.width > width) {
        const name = (await control.getAttribute('aria-label')) ?? (await control.innerText()).slice(0, 30);
        found.push(
          `${where}: row ${i + 1}'s "${name}" at ${Math.round(box.x)}..${Math.round(box.x + box.width)}`,
        );
      }
    }
  }
  if (at.actions && withActions === 0) found.push(`${where}: no row shows its actions`);
  return found;
}

describe('every table on a phone and a tablet', () => {
  let browser: Browser;
  beforeAll(async () => {
    // The rows first: every page then opens with them.
    await seedTableRows();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function signedIn(who: 'owner' | 'admin', device: (typeof DEVICES)[number]): Promise<BrowserContext> {
    const context = await browser.newContext({
      baseURL: inject('apiUrl'),
      viewport: device.viewport,
      hasTouch: device.touch,
      isMobile: device.touch,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await logIn(page, DEMO[who].email, DEMO[who].password);
    return context;
  }

  for (const device of DEVICES) {
    it.each(['owner', 'admin'] as const)(
      `%s's tables fit a ${device.name} (${device.viewport.width} px), every row action on screen`,
      async (who) => {
        const context = await signedIn(who, device);
        const page = context.pages()[0]!;
        const found: string[] = [];
        for (const at of PAGES[who]) {
          await page.goto(at.path);
          found.push(...(await misfits(page, at, device.viewport.width)));
        }
        await context.close();
        expect(found).toEqual([]);
      },
      300_000,
    );
  }
});
