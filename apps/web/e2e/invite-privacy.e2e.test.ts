import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@helix/shared';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { createTenant, createUser, PASSWORD } from '@helix/server/testing/factories';
import { launchBrowser, newPage } from './support/browser.ts';
import { logIn } from './support/accounts.ts';
import { waitForMail } from './support/mailbox.ts';

const id = randomBytes(3)
  .toString('hex')
  .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!);

/**
 * Issue 18, point 2, in the browser: an owner who invites an address registered at another school
 * sees what they see for a new address (the same success, a pending row), and learns nothing more.
 */
describe('inviting an address registered at another school', () => {
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

  async function invite(page: Page, name: string, email: string) {
    await page.getByTestId('add-users').click();
    await page.getByRole('menuitem', { name: 'Single Invite' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite User' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await page.getByText(MSG.resetEmailSent(email)).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page
      .getByRole('row', { name: new RegExp(name) })
      .getByRole('button', { name: 'Resend Email' })
      .waitFor();
  }

  it('shows the same success as for a new address, and the row as invited', async () => {
    const plan = await db.plan.findUniqueOrThrow({ where: { id: 8 } });
    const school = await createTenant(db, { plan, name: `Private ${id}` });
    await db.tenantSubscription.update({ where: { tenantId: school.id }, data: { userLimit: 10 } });
    const owner = await createUser(db, {
      tenant: school,
      email: `owner.private.${id}@example.com`,
      isOwner: true,
      roles: ['Admin'],
    });
    const elsewhere = await createUser(db, {
      tenant: await createTenant(db, { plan, name: `Elsewhere ${id}` }),
      email: `known.${id}@example.com`,
    });

    const { context, page } = await newPage(browser);
    await logIn(page, owner.email, PASSWORD);
    await page.goto('/user/settings/users-list');
    await page.getByTestId('total-users').waitFor();

    await invite(page, `New Person ${id}`, `new.${id}@example.com`);
    await invite(page, `Known Person ${id}`, elsewhere.email);
    const row = page.getByRole('row', { name: new RegExp(`Known Person ${id}`) });
    expect(await row.innerText()).toContain(elsewhere.email);
    expect(await page.getByTestId('total-users').innerText()).toBe(MSG.totalUsers(3, 10));

    // The address's owner is told instead, with no link to accept.
    const notice = await waitForMail(elsewhere.email);
    expect(notice.subject).toBe(`You were invited to Private ${id} on Helix`);
    expect(notice.text).not.toMatch(/https?:\/\//);
    await context.close();
  });
});
