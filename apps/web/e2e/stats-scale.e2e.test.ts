import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { createTenant, createUser } from '@helix/server/testing/factories';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO, logIn } from './support/accounts.ts';

const id = randomBytes(3).toString('hex');
const USERS = 30;

/** The platform statistics with many users: a top-N table paged and searched by the server. */
describe('statistics at scale', () => {
  let browser: Browser;
  let db: Db;

  beforeAll(async () => {
    db = createTestDb(inject('databaseUrl'));
    const tenant = await createTenant(db, { name: `Scale School ${id}` });
    const model = await db.model.create({ data: { name: `Scale ${id}`, urlModelName: `scale-${id}` } });
    const day = new Date(new Date().toISOString().slice(0, 10));
    for (let i = 1; i <= USERS; i += 1) {
      const user = await createUser(db, { tenant, name: `Scale ${id} ${String(i).padStart(2, '0')}` });
      // Far more views than any other test makes (a view-limit test reaches 11,001): user 30 is the platform's top viewer.
      await db.modelViewDaily.create({
        data: {
          modelId: model.id,
          tenantId: tenant.id,
          day,
          source: 'portal',
          viewerKey: `u:${user.id}`,
          userId: user.id,
          count: 1_000_000 + i,
        },
      });
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await db?.$disconnect();
  });

  it('shows the top users in a paged table, and searches them on the server', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.admin.email, DEMO.admin.password);
    await page.goto('/stats');
    const table = page.getByTestId('stats-users');
    const rows = table.locator('tbody tr.ant-table-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(10);
    expect(await rows.first().innerText()).toContain(`Scale ${id} 30`);
    expect(await page.locator('.stats-card').count()).toBeLessThan(20);

    await table.getByLabel('Search users').fill(`scale ${id}`);
    await expect.poll(() => table.locator('.stats-users-total').innerText()).toContain(`${USERS} users`);
    await table.locator('.ant-pagination-item-3').click();
    await expect.poll(() => rows.first().innerText()).toContain(`Scale ${id} 10`);
    expect(await rows.count()).toBe(10);
    await context.close();
  });
});
