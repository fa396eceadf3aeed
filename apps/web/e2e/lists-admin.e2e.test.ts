import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { createTenant, createUser } from '@helix/server/testing/factories';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO, logIn } from './support/accounts.ts';

const id = randomBytes(3)
  .toString('hex')
  .replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]!);
const SUBSCRIBERS = 120;
const REQUESTS = 90;

/**
 * The platform admin's newsletter and support lists at scale (docs/lists-at-scale.md): paged, searched
 * and sorted by the server; the support list keeps its status filter.
 */
describe('admin lists paged and searched by the server', () => {
  let browser: Browser;
  let db: Db;

  beforeAll(async () => {
    db = createTestDb(inject('databaseUrl'));
    const now = Date.now();
    await db.newsletterSubscriber.createMany({
      data: Array.from({ length: SUBSCRIBERS }, (_, i) => ({
        email: `reader-${id}-${String(i + 1).padStart(3, '0')}@example.test`,
        createdAt: new Date(now - (i + 1) * 60_000),
      })),
    });
    // One that the search leaves out, so the searched total differs from the whole list's.
    await db.newsletterSubscriber.create({
      data: { email: `someone-else-${randomBytes(3).toString('hex')}@example.test` },
    });
    const tenant = await createTenant(db, { name: `Lists School ${id}` });
    const user = await createUser(db, { tenant, name: `Lists Sender ${id}` });
    // One open request the search leaves out (another school and sender), for the same reason.
    const elsewhere = await createTenant(db, { name: 'Other School' });
    const someone = await createUser(db, { tenant: elsewhere, name: 'Someone Else' });
    await db.supportRequest.create({
      data: {
        tenantId: elsewhere.id,
        userId: someone.id,
        subject: 'Unrelated',
        message: 'x',
        targetHours: 16,
      },
    });
    await db.supportRequest.createMany({
      data: Array.from({ length: REQUESTS }, (_, i) => ({
        tenantId: tenant.id,
        userId: user.id,
        subject: `Lists ${id} request ${String(i + 1).padStart(2, '0')}`,
        message: 'Details',
        targetHours: 16,
        // Every third request is closed: the default filter (open, answered) leaves them out.
        status: i % 3 === 2 ? ('closed' as const) : ('open' as const),
        createdAt: new Date(now - (REQUESTS - i) * 60_000),
      })),
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await db?.$disconnect();
  });

  it('newsletter: one page of 50, searched, paged and sorted by the server', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.admin.email, DEMO.admin.password);
    await page.goto('/news-letter');
    const rows = page.locator('tbody tr.ant-table-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBeLessThanOrEqual(50);

    await page.getByLabel('Search e-mail').fill(id);
    await expect
      .poll(() => page.getByTestId('subscribers-total').innerText(), { timeout: 15_000 })
      .toBe(`${SUBSCRIBERS} subscribers`);
    // Newest first: reader 001 was made last.
    await expect.poll(() => rows.first().innerText(), { timeout: 15_000 }).toContain(`reader-${id}-001`);
    expect(await rows.count()).toBe(50);
    await page.locator('.ant-pagination-item-3').click();
    await expect.poll(() => rows.first().innerText(), { timeout: 15_000 }).toContain(`reader-${id}-101`);
    expect(await rows.count()).toBe(SUBSCRIBERS - 100);

    // Sorting by e-mail starts again from page 1 (ascending, then descending).
    await page.locator('th', { hasText: 'Email' }).click();
    await expect.poll(() => rows.first().innerText(), { timeout: 15_000 }).toContain(`reader-${id}-001`);
    await page.locator('th', { hasText: 'Email' }).click();
    await expect.poll(() => rows.first().innerText(), { timeout: 15_000 }).toContain(`reader-${id}-120`);

    await page.getByLabel('Search e-mail').fill(`${id}-07`);
    await expect
      .poll(() => page.getByTestId('subscribers-total').innerText(), { timeout: 15_000 })
      .toBe('10 subscribers');
    await context.close();
  });

  it('support: searched and paged by the server, with its status filter', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.admin.email, DEMO.admin.password);
    await page.goto('/support');
    await page.getByRole('heading', { name: 'Support Requests', level: 1 }).waitFor();
    const rows = page.locator('tbody tr.ant-table-row');

    await page.getByLabel('Search subject, user or tenant').fill(`Lists ${id}`);
    // Open and answered only by default: 90 requests less the 30 closed ones.
    const shown = REQUESTS - Math.floor(REQUESTS / 3);
    await expect
      .poll(() => page.getByTestId('support-total').innerText(), { timeout: 15_000 })
      .toBe(`${shown} requests`);
    // Oldest first: request 01 waited longest.
    await expect
      .poll(() => rows.first().innerText(), { timeout: 15_000 })
      .toContain(`Lists ${id} request 01`);
    // 20 requests a page: page 2 starts at request 21.
    expect(await rows.count()).toBe(20);
    await page.locator('.ant-pagination-item-2').click();
    await expect
      .poll(() => rows.first().innerText(), { timeout: 15_000 })
      .not.toContain(`Lists ${id} request 01`);
    expect(await rows.count()).toBe(Math.min(20, shown - 20));
    expect(await rows.first().innerText()).toContain(`Lists ${id} request`);

    // Only the closed ones (the filter is applied by the server).
    await page.locator('th', { hasText: 'Status' }).locator('.ant-table-filter-trigger').click();
    const menu = page.locator('.ant-table-filter-dropdown');
    await menu.getByText('Open', { exact: true }).click();
    await menu.getByText('Answered', { exact: true }).click();
    await menu.getByText('Closed', { exact: true }).click();
    await menu.getByRole('button', { name: 'OK' }).click();
    await expect
      .poll(() => page.getByTestId('support-total').innerText(), { timeout: 15_000 })
      .toBe(`${Math.floor(REQUESTS / 3)} requests`);
    await expect
      .poll(() => rows.first().innerText(), { timeout: 15_000 })
      .toContain(`Lists ${id} request 03`);
    await context.close();
  });
});
