import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { createTenant, createUser, PASSWORD } from '@helix/server/testing/factories';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO, logIn } from './support/accounts.ts';

// Letters only: the search below must not match other tests' digits.
const id = randomBytes(3)
  .toString('hex')
  .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!);
const PUPILS = 24;
const TENANTS = 25;

/** The width of the page beyond the viewport (0: nothing to scroll sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * The users lists at scale (docs/lists-at-scale.md) in the browser: the owner's users list paged,
 * searched and sorted by the server; the model form's tenant picker searching the server.
 */
describe('users lists paged, searched and sorted by the server', () => {
  let browser: Browser;
  let db: Db;
  let owner: { email: string };

  beforeAll(async () => {
    db = createTestDb(inject('databaseUrl'));
    const plan = await db.plan.findUniqueOrThrow({ where: { id: 8 } });
    const school = await createTenant(db, { plan, name: `Paged School ${id}` });
    await db.tenantSubscription.update({ where: { tenantId: school.id }, data: { userLimit: 100 } });
    const made = await createUser(db, {
      tenant: school,
      name: `Aaron Owner ${id}`,
      email: `owner.paged.${id}@example.com`,
      isOwner: true,
      roles: ['Admin'],
    });
    owner = { email: made.email };
    // 24 pupils (names Paged Pupil … 01–24; e-mails in the reverse order) and an invite of an address
    // registered elsewhere, whose placeholder must never show.
    await db.$executeRawUnsafe(
      `INSERT INTO "User" ("tenantId", name, "userName", email, "updatedAt")
       SELECT $1, 'Paged Pupil ${id} ' || lpad(n::text, 2, '0'), 'paged-${id}-' || n,
              'p' || lpad((${PUPILS + 1} - n)::text, 2, '0') || '.${id}@example.com', now()
       FROM generate_series(1, ${PUPILS}) AS n`,
      school.id,
    );
    await db.user.create({
      data: {
        tenantId: school.id,
        name: `Elsewhere Invitee ${id}`,
        userName: `elsewhere-${id}`,
        email: `invite-${id}0000000000000000@elsewhere.invalid`,
        elsewhereEmail: `far.${id}@other-school.example`,
      },
    });
    for (let i = 1; i <= TENANTS; i += 1) {
      await createTenant(db, { plan, name: `Picker ${id} ${String(i).padStart(2, '0')}` });
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await db?.$disconnect();
  });

  it("pages, searches and sorts the owner's users on the server, on a tablet and a phone", async () => {
    const { context, page } = await newPage(browser);
    await page.setViewportSize({ width: 820, height: 1180 });
    await logIn(page, owner.email, PASSWORD);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/user/all')) asked.push(decodeURIComponent(r.url()));
    });
    const answer = await page.goto('/user/settings/users-list');
    // The API renders the list with the page the app asks first (apps/api/src/http/server-render.ts and
    // the web's route prefetch), and the app then starts with that answer instead of asking for it.
    const serverRenderedList = (await answer?.text())?.includes('data-server-rendered="users-list"') ?? false;
    const rows = page.locator('tbody tr.ant-table-row');
    const names = () => rows.locator('td:first-child').allInnerTexts();

    // 26 users by name: the owner, the invitee, pupils 01–18 on page 1; pupils 19–24 on page 2.
    await rows.first().waitFor();
    expect(await rows.count()).toBe(20);
    expect((await names())[0]).toContain(`Aaron Owner ${id}`);
    expect(asked.some((u) => u.includes('page=1') && u.includes('pageSize=20'))).toBe(!serverRenderedList);
    // Pressed on the server-rendered page, the app makes the press again once it has taken the page over (after
    // its session refresh: many seconds on a loaded 2-core machine).
    await page.locator('.ant-pagination-item-2').click();
    await expect.poll(async () => (await names())[0], { timeout: 45_000 }).toContain(`Paged Pupil ${id} 19`);
    expect(await rows.count()).toBe(6);
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    // The search narrows from page 1, case-insensitively, and marks the match.
    await page.getByTestId('users-search').locator('input').fill(`PUPIL ${id} 1`);
    await expect.poll(() => rows.count()).toBe(10);
    expect((await names())[0]).toContain(`Paged Pupil ${id} 10`);
    expect(await page.locator('mark.search-match').first().innerText()).toBe(`Pupil ${id} 1`);
    expect(asked.some((u) => u.includes(`search=PUPIL ${id} 1`) || u.includes(`search=PUPIL+${id}+1`))).toBe(
      true,
    );

    // The invited address is shown and searched, never its placeholder.
    await page.getByTestId('users-search').locator('input').fill(`far.${id}`);
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain(`far.${id}@other-school.example`);
    expect(await page.locator('body').innerText()).not.toContain('elsewhere.invalid');

    // Sorting by e-mail (the server's order): pupil 24 has the first pupil address.
    await page.getByTestId('users-search').locator('input').fill(`pupil ${id}`);
    await expect.poll(() => rows.count()).toBe(20);
    await page.locator('th', { hasText: 'Email' }).click();
    await expect.poll(async () => (await names())[0]).toContain(`Paged Pupil ${id} 24`);
    expect(asked.some((u) => u.includes('sort=email') && u.includes('order=asc'))).toBe(true);
    await page.locator('th', { hasText: 'Email' }).click();
    await expect.poll(async () => (await names())[0]).toContain(`Paged Pupil ${id} 01`);

    // On a phone the table scrolls inside its card: the page is no wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => overflow(page)).toBeLessThanOrEqual(0);
    await context.close();
  });

  it("searches the model form's tenant picker on the server, 20 tenants at a time", async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.admin.email, DEMO.admin.password);
    await page.goto('/models');
    await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add Model' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Model' });
    // The dialog's form is its own chunk (models.page.tsx): the switch is pressed once it is drawn.
    const isPublic = dialog.getByLabel('Public');
    await expect.poll(() => isPublic.isChecked(), { timeout: 30_000 }).toBe(true);
    await isPublic.click();
    await expect.poll(() => isPublic.isChecked()).toBe(false);
    const picker = dialog.getByLabel('Restricted tenants');
    await picker.waitFor({ timeout: 30_000 });

    const firstPage = page.waitForResponse(
      (r) => r.url().includes('/tenant/getAllTenants') && r.url().includes(`search=picker+${id}`),
    );
    await picker.click();
    await page.keyboard.type(`picker ${id}`);
    const answer = (await (await firstPage).json()) as { rows: { name: string }[]; total: number };
    expect(answer.total).toBe(TENANTS);
    expect(answer.rows).toHaveLength(20);
    const options = page.locator('.ant-select-dropdown .ant-select-item-option');
    await options.filter({ hasText: `Picker ${id} 01` }).waitFor();

    // Scrolled to its end, the list asks for the next 20.
    const secondPage = page.waitForResponse(
      (r) => r.url().includes('/tenant/getAllTenants') && r.url().includes('page=2'),
    );
    await page
      .locator('.ant-select-dropdown [class$="-list-holder"]')
      .evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    const next = (await (await secondPage).json()) as { rows: { name: string }[] };
    expect(next.rows.map((t) => t.name)).toEqual([21, 22, 23, 24, 25].map((i) => `Picker ${id} ${i}`));

    // A narrower search: one tenant, chosen, shown as a tag.
    await page.keyboard.press('Control+a');
    await page.keyboard.type(`picker ${id} 07`);
    await expect.poll(() => options.count()).toBe(1);
    await options.first().click();
    await dialog.locator('.ant-select-selection-item', { hasText: `Picker ${id} 07` }).waitFor();
    await context.close();
  });
});
