import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import Papa from 'papaparse';
import { MSG } from '@helix/shared';
import { AUDIT_CSV_HEADER } from '@helix/shared/schemas/audit';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { createTenant, createUser, PASSWORD } from '@helix/server/testing/factories';
import { launchBrowser, newPage } from './support/browser.ts';
import { outboxCount, queueMore } from './support/outbox-store.ts';
import { DEMO, expectPath, logIn } from './support/accounts.ts';

const id = randomBytes(3)
  .toString('hex')
  .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!);

describe('the audit log in the browser', () => {
  let browser: Browser;
  let db: Db;

  beforeAll(async () => {
    browser = await launchBrowser();
    db = createTestDb(inject('databaseUrl'));
  });
  afterAll(async () => {
    await browser?.close();
    await db?.$disconnect();
  });

  let school = '';

  it('an owner invites a colleague, finds it in the audit log, filters and exports it', async () => {
    // A school of its own on the seeded Educator Monthly plan (id 8), with seats to invite into.
    const plan = await db.plan.findUniqueOrThrow({ where: { id: 8 } });
    school = `Audit School ${id}`;
    const tenant = await createTenant(db, { plan, name: school });
    await db.tenantSubscription.update({ where: { tenantId: tenant.id }, data: { userLimit: 50 } });
    const ownerEmail = `owner.audit${id}@example.com`;
    await createUser(db, { tenant, email: ownerEmail, name: `Owner ${id}`, isOwner: true, roles: ['Admin'] });
    const colleague = `colleague.audit${id}@example.com`;

    const { context, page } = await newPage(browser);
    await logIn(page, ownerEmail, PASSWORD);

    // The change: a single invite from the users list.
    await page.goto('/user/settings/users-list');
    await page.getByTestId('add-users').click();
    await page.getByRole('menuitem', { name: 'Single Invite' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite User' });
    await dialog.getByLabel('Name').fill(`Colleague ${id}`);
    await dialog.getByLabel('Email').fill(colleague);
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await page.getByText(MSG.resetEmailSent(colleague)).waitFor();

    // The settings menu leads to the log; the change is there with who made it.
    await page.goto('/user/settings/profile');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
    await expectPath(page, '/user/settings/audit-log');
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    const table = page.getByRole('table');
    const row = page.locator('tbody tr.ant-table-row', { hasText: colleague });
    await row.waitFor();
    await expect.poll(() => row.innerText()).toContain('user.invite');
    expect(await row.innerText()).toContain(ownerEmail);

    // Filters: the action keeps the row; "made offline only" leaves nothing.
    await page.getByLabel('Action').click();
    await page.locator('.ant-select-item-option[title="user.invite"]').click();
    await row.waitFor();
    await expect.poll(() => page.locator('tbody tr.ant-table-row').count()).toBe(1);
    await page.getByText('Made offline only').click();
    await table.getByText(MSG.auditNoMatch).waitFor();
    await page.getByText('Made offline only').click();
    await row.waitFor();

    // The export is the server's CSV of the filtered events.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('audit-export').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = Papa.parse<string[]>(text.slice(1).trim()).data;
    expect(rows[0]).toEqual([...AUDIT_CSV_HEADER]);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual(expect.arrayContaining([ownerEmail, 'user.invite', `invite ${colleague}`, 'no']));

    // A phone: each entry is a card inside the screen's width (ui/responsive-table.tsx), not a table
    // that scrolls sideways.
    await page.setViewportSize({ width: 390, height: 800 });
    await row.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = await row.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await context.close();
  });

  it("the platform admin opens every tenant's log from the sidebar and narrows it to one school", async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.admin.email, DEMO.admin.password);
    await page.getByRole('navigation', { name: 'Administration' }).getByText('Audit log').click();
    await expectPath(page, '/audit-log');
    await page.getByRole('columnheader', { name: 'Tenant' }).waitFor();
    const row = page.locator('tbody tr.ant-table-row', { hasText: school });
    await row.first().waitFor();
    await page.getByLabel('Tenant').click();
    await page.keyboard.type(school);
    await page.locator('.ant-select-item-option', { hasText: school }).click();
    await expect
      .poll(async () => {
        const rows = await page.locator('tbody tr.ant-table-row').allInnerTexts();
        return rows.length > 0 && rows.every((text) => text.includes(school));
      })
      .toBe(true);
    await context.close();
  });

  it('edits queued offline are recorded once each, as offline, with their queued and applied times', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.admin.email, DEMO.admin.password);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.goto('/roles');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const prefix = `Audited offline ${id} `;
    await context.setOffline(true);
    await page.getByTestId('create-role').click();
    const dialog = page.getByRole('dialog', { name: 'Create Role' });
    await dialog.getByTestId('role-name').fill(`${prefix}000`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await queueMore(page, prefix, 5);
    await expect.poll(() => outboxCount(page)).toBe(6);
    // Some answers are lost after the server acted: the retry (same key) must not record twice.
    let n = 0;
    await context.route('**/api/t/*/role/create', async (route) => {
      n += 1;
      if (n % 2 === 0) {
        await route.fetch().catch(() => undefined);
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await context.setOffline(false);
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.dispatchEvent(new Event('online')));
          return outboxCount(page);
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(0);

    const events = await db.auditEvent.findMany({
      where: { action: 'role.create', changes: { path: ['request', 'name'], string_starts_with: prefix } },
    });
    const names = events.map((e) => (e.changes as { request: { name: string } }).request.name).sort();
    expect(names).toEqual([0, 1, 2, 3, 4, 5].map((i) => `${prefix}${String(i).padStart(3, '0')}`));
    for (const event of events) {
      expect(event.offline).toBe(true);
      expect(event.queuedAt).not.toBeNull();
      expect(event.queuedAt!.getTime()).toBeLessThanOrEqual(event.appliedAt.getTime());
    }
    await context.close();
    await db.role.deleteMany({ where: { name: { startsWith: prefix } } });
  }, 120_000);
});
