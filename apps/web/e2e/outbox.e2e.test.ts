import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';
import { MSG } from '@helix/shared';
import { createTestDb } from '@helix/server/testing/test-db';
import { createTenant, createUser, PASSWORD } from '@helix/server/testing/factories';
import { DEMO, logIn } from './support/accounts.ts';
import { registerPerson, sql } from './support/billing.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { outboxCount, queueMore } from './support/outbox-store.ts';

/**
 * The offline outbox in Chromium (issue 8 §4): edits made across a disconnect end on the server exactly
 * once, with two tabs too and on a flaky network; conflicts and refusals stay in the Outbox panel with
 * the server's reason, and retry and discard work. Role creations by the platform admin are the edits
 * (each has a unique name, so "exactly once" is a count in the database).
 */

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

const countsOf = async (prefix: string) =>
  query<{ name: string; n: string }>(
    'SELECT name, count(*)::text AS n FROM "Role" WHERE name LIKE $1 GROUP BY name',
    [`${prefix}%`],
  );

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  // The hundreds of roles made here would push other files' new roles off the platform's first page.
  await query(`DELETE FROM "Role" WHERE NOT "builtIn" AND name ~ '^(Offline|Two tabs|Flaky) [0-9]+ '`);
});

/** Signed in as the platform admin on /roles, with the service worker in control (the shell works offline). */
async function adminOnRoles(): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await newPage(browser);
  await logIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.goto('/roles');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.getByTestId('create-role').waitFor();
  return { context, page };
}

/**
 * A new account made a platform admin whose only role (`editors`) holds Role.listing.view and
 * Role.update (roles are the platform's: only platform admins manage them, see role.policy.ts).
 */
async function roleEditor(page: Page, editors: string) {
  const person = await registerPerson(page);
  await sql(`INSERT INTO "Role" (name, "updatedAt") VALUES ($1, now())`, [editors]);
  await sql(
    `INSERT INTO "RolePermission" ("roleId", "permissionId")
     SELECT r.id, p.id FROM "Role" r, "Permission" p
     WHERE r.name = $1 AND p.name IN ('Role.listing.view', 'Role.update')`,
    [editors],
  );
  await sql(`UPDATE "User" SET "isAdmin" = true WHERE email = $1`, [person.email]);
  await sql(`DELETE FROM "UserRole" WHERE "userId" = (SELECT id FROM "User" WHERE email = $1)`, [
    person.email,
  ]);
  await sql(
    `INSERT INTO "UserRole" ("userId", "roleId")
     SELECT u.id, r.id FROM "User" u, "Role" r WHERE u.email = $1 AND r.name = $2`,
    [person.email, editors],
  );
  return person;
}

/** The owner of a fresh tenant on the Educator Monthly plan (id 8, with seats to invite). */
async function educatorOwner(name: string) {
  const db = createTestDb(inject('databaseUrl'));
  try {
    const plan = await db.plan.findUniqueOrThrow({ where: { id: 8 } });
    const tenant = await createTenant(db, { plan, name });
    await db.tenantSubscription.update({ where: { tenantId: tenant.id }, data: { userLimit: 10 } });
    const email = `owner.${name.toLowerCase().replace(/\W+/g, '')}@example.com`;
    await createUser(db, { tenant, email, name: `Owner ${name}`, isOwner: true, roles: ['Admin'] });
    return { email, password: PASSWORD };
  } finally {
    await db.$disconnect();
  }
}

async function createRoleInUi(page: Page, name: string): Promise<void> {
  await page.getByTestId('create-role').click();
  const dialog = page.getByRole('dialog', { name: 'Create Role' });
  await dialog.getByTestId('role-name').fill(name);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

async function expectExactlyOnce(prefix: string, count: number): Promise<void> {
  await expect
    .poll(async () => (await countsOf(prefix)).length, { timeout: 90_000, interval: 500 })
    .toBe(count);
  const counts = await countsOf(prefix);
  expect(counts.filter((c) => c.n !== '1')).toEqual([]);
}

describe('the outbox', () => {
  it('100 edits made across a disconnect (offline, reload, online) end on the server exactly once', async () => {
    const { context, page } = await adminOnRoles();
    const prefix = `Offline ${Date.now()} `;
    await context.setOffline(true);
    await createRoleInUi(page, `${prefix}000`);
    await page
      .locator('tr', { hasText: `${prefix}000` })
      .getByTestId('pending-sync')
      .waitFor();
    await queueMore(page, prefix, 99);
    await page.reload();
    await page.getByTestId('offline-notice').waitFor();
    await expect.poll(() => outboxCount(page)).toBe(100);
    await context.setOffline(false);
    await expectExactlyOnce(prefix, 100);
    await expect.poll(() => outboxCount(page), { timeout: 30_000 }).toBe(0);
    await context.close();
  }, 180_000);

  it('with two tabs open, the edits are replayed once', async () => {
    const { context, page } = await adminOnRoles();
    const second = await context.newPage();
    await second.goto('/roles');
    await second.getByTestId('create-role').waitFor();
    const prefix = `Two tabs ${Date.now()} `;
    await context.setOffline(true);
    await createRoleInUi(page, `${prefix}000`);
    await queueMore(page, prefix, 99);
    await context.setOffline(false);
    await expectExactlyOnce(prefix, 100);
    await context.close();
    // A replay of 100 edits, like the tests around it.
  }, 180_000);

  it('on a flaky network (a third of the calls dropped, before or after the server acted) still exactly once', async () => {
    const { context, page } = await adminOnRoles();
    const prefix = `Flaky ${Date.now()} `;
    await context.setOffline(true);
    await createRoleInUi(page, `${prefix}000`);
    await queueMore(page, prefix, 29);
    let n = 0;
    await context.route('**/api/t/*/role/create', async (route) => {
      n += 1;
      if (n % 3 === 0) return route.abort('connectionreset');
      if (n % 3 === 1 && n > 1) {
        // The server acts and answers; the answer is lost on the way back.
        await route.fetch().catch(() => undefined);
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await context.setOffline(false);
    // Skip the backoff (as the panel's Sync now does, through the 'online' handler) until it is empty.
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.dispatchEvent(new Event('online')));
          return outboxCount(page);
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBe(0);
    await expectExactlyOnce(prefix, 30);
    await context.close();
  }, 180_000);

  it('a conflict and a refusal stay in the panel with the reason; retry on the current version and discard work', async () => {
    const { context, page } = await adminOnRoles();
    const name = `Conflict ${Date.now()}`;
    await createRoleInUi(page, name);
    await page.locator('tr', { hasText: name }).waitFor();
    const [role] = await query<{ id: number }>('SELECT id FROM "Role" WHERE name = $1', [name]);

    await context.setOffline(true);
    await page.getByTestId(`edit-role-${role!.id}`).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Role' });
    await dialog.getByTestId('role-name').fill(`${name} edited`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Refused: the name belongs to another role already.
    await createRoleInUi(page, 'Admin');
    // Meanwhile someone else edits the role on the server.
    await query('UPDATE "Role" SET version = version + 1 WHERE id = $1', [role!.id]);
    await context.setOffline(false);

    await page.getByTestId('outbox-button').click();
    const conflict = page.locator('[data-testid="outbox-entry"][data-state="conflict"]');
    const refused = page.locator('[data-testid="outbox-entry"][data-state="refused"]');
    await conflict.waitFor({ timeout: 30_000 });
    await refused.getByTestId('outbox-reason').getByText(MSG.roleNameTaken).waitFor();
    await conflict.getByTestId('outbox-reason').getByText(MSG.versionConflict).waitFor();

    await conflict.getByRole('button', { name: MSG.outboxRetryCurrent }).click();
    await expect
      .poll(async () => (await query('SELECT 1 FROM "Role" WHERE name = $1', [`${name} edited`])).length)
      .toBe(1);
    await refused.getByRole('button', { name: MSG.outboxDiscard }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: MSG.outboxDiscard }).click();
    await expect.poll(() => outboxCount(page)).toBe(0);
    expect(await query('SELECT 1 FROM "Role" WHERE name = $1', ['Admin'])).toHaveLength(1);
    await context.close();
  });

  it('an edit refused because the user lost the permission shows with the reason, and discard works', async () => {
    const { context, page } = await newPage(browser);
    const stamp = Date.now();
    const editors = `Role editors ${stamp}`;
    const target = `Lost permission ${stamp}`;
    const person = await roleEditor(page, editors);
    await sql(`INSERT INTO "Role" (name, "updatedAt") VALUES ($1, now())`, [target]);
    const [role] = await query<{ id: number }>('SELECT id FROM "Role" WHERE name = $1', [target]);
    await logIn(page, person.email, person.password);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.goto('/roles');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    // The other tests made many roles: the name search brings this one onto the first page.
    await page.locator('.ant-table-filter-trigger').first().click();
    await page.getByTestId('search-name').fill(target);
    await page.getByTestId('search-name').press('Enter');
    await page.getByTestId(`edit-role-${role!.id}`).waitFor();

    await context.setOffline(true);
    await page.getByTestId(`edit-role-${role!.id}`).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Role' });
    await dialog.getByTestId('role-name').fill(`${target} renamed`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('tr', { hasText: target }).getByTestId('pending-sync').waitFor();
    // Meanwhile the platform takes Role.update away from the user's role.
    await sql(
      `DELETE FROM "RolePermission"
       WHERE "roleId" = (SELECT id FROM "Role" WHERE name = $1)
         AND "permissionId" = (SELECT id FROM "Permission" WHERE name = 'Role.update')`,
      [editors],
    );
    await context.setOffline(false);

    await page.getByTestId('outbox-button').click();
    const refused = page.locator('[data-testid="outbox-entry"][data-state="refused"]');
    await refused.getByTestId('outbox-reason').getByText(MSG.unauthorizedAccess).waitFor({ timeout: 30_000 });
    await refused.getByRole('button', { name: MSG.outboxDiscard }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: MSG.outboxDiscard }).click();
    await expect.poll(() => outboxCount(page)).toBe(0);
    await refused.waitFor({ state: 'detached' });
    expect(await query('SELECT 1 FROM "Role" WHERE name = $1', [target])).toHaveLength(1);
    expect(await query('SELECT 1 FROM "Role" WHERE name = $1', [`${target} renamed`])).toHaveLength(0);
    await context.close();
  });

  it('a queued invite is a pending row of the users list; a replayed profile name comes back from the server', async () => {
    const stamp = Date.now();
    const owner = await educatorOwner(`Outbox ${stamp}`);
    const invitee = { name: `Invitee ${stamp}`, email: `invitee.${stamp}@example.com` };
    const { context, page } = await newPage(browser);
    await logIn(page, owner.email, owner.password);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.goto('/user/settings/users-list');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.getByTestId('total-users').waitFor();

    await context.setOffline(true);
    await page.getByTestId('add-users').click();
    await page.getByRole('menuitem', { name: 'Single Invite' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite User' });
    await dialog.getByLabel('Name').fill(invitee.name);
    await dialog.getByLabel('Email').fill(invitee.email);
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row', { name: new RegExp(invitee.name) });
    await row.getByTestId('pending-sync').waitFor();

    await page.goto('/user/settings/profile');
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Full name').fill(`Renamed ${stamp}`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MSG.savedForLater).first().waitFor();
    await expect.poll(() => outboxCount(page)).toBe(2);

    await context.setOffline(false);
    await expect.poll(() => outboxCount(page), { timeout: 30_000 }).toBe(0);
    // The header holds the server's user again (its new version too): a second edit online is accepted.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Full name').fill(`Renamed again ${stamp}`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MSG.userUpdated).waitFor();
    await expect
      .poll(() => page.getByTestId('user-menu').getAttribute('aria-label'))
      .toBe(`User menu (Renamed again ${stamp})`);

    await page.goto('/user/settings/users-list');
    await row.getByRole('button', { name: 'Resend Email' }).waitFor();
    expect(await row.getByTestId('pending-sync').count()).toBe(0);
    expect(await query('SELECT 1 FROM "User" WHERE email = $1', [invitee.email])).toHaveLength(1);
    await context.close();
  });
});
