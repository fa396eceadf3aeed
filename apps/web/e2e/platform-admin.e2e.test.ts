import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/node';
import { MSG } from '@helix/shared';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO, expectPath, logIn } from './support/accounts.ts';

const id = randomBytes(3)
  .toString('hex')
  .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!);

/** The customer the admin adds in the first test (Educator Monthly, newsletter opt-in). */
const added = {
  name: `Lena Added ${id}`,
  userName: `lena${id}`,
  email: `lena.${id}@example.com`,
  password: `pw-${id}-long`,
};
const roleName = `Viewer ${id}`;

const sidebarLabels = (page: Page) =>
  page.locator('nav[aria-label="Administration"] .ant-menu-item').allInnerTexts();
const selectedItem = (page: Page) =>
  page.locator('nav[aria-label="Administration"] .ant-menu-item-selected').innerText();

/** The settings side menu's items (what the user's permissions allow). */
async function settingsItems(page: Page): Promise<string[]> {
  const nav = page.locator('nav[aria-label="Settings"]');
  await nav.getByRole('link').first().waitFor();
  return (await nav.getByRole('link').allInnerTexts()).map((t) => t.trim()).filter((t) => t !== 'Exit');
}

describe('platform administration in the browser', () => {
  let browser: Browser;
  let admin: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await newPage(browser);
    await logIn(admin.page, DEMO.admin.email, DEMO.admin.password);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the platform sidebar with the current page marked, folded into a menu on a phone', async () => {
    const { page } = admin;
    await page.goto('/users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    expect(await sidebarLabels(page)).toEqual([
      'Users',
      'Models',
      'Statistics',
      'Roles',
      'Permissions',
      'Newsletter',
      'Support',
      'Audit log',
    ]);
    await expect.poll(() => selectedItem(page)).toBe('Users');
    await page.locator('nav[aria-label="Administration"]').getByText('Roles', { exact: true }).click();
    await expectPath(page, '/roles');
    await expect.poll(() => selectedItem(page)).toBe('Roles');

    const phone = await browser.newContext({
      baseURL: new URL(page.url()).origin,
      viewport: { width: 400, height: 800 },
    });
    await phone.addCookies(await admin.context.cookies());
    const small = await phone.newPage();
    await small.goto('/permissions');
    await small.getByRole('heading', { name: 'Permissions', level: 1 }).waitFor();
    // The menu beside the page is hidden by CSS on a phone (the server's markup is the phone's layout).
    expect(await small.locator('nav[aria-label="Administration"] .ant-menu-item:visible').count()).toBe(0);
    await small.getByTestId('sidebar-toggle').click();
    const drawer = small.locator('.ant-drawer');
    await drawer.getByText('Newsletter', { exact: true }).click();
    await expectPath(small, '/news-letter');
    await phone.close();
  });

  it('adds a user on a plan: a tenant, its owner and a granted subscription', async () => {
    const { page } = admin;
    await page.goto('/users');
    await page.getByTestId('add-user').click();
    await expectPath(page, '/users/add-user');
    // Empty form: the spec's messages.
    await page.getByTestId('add-user-save').click();
    const errors = page.locator('.ant-form-item-explain-error');
    await errors.filter({ hasText: MSG.addUserName }).waitFor();
    await errors.filter({ hasText: MSG.choosePlan }).waitFor();
    await errors.filter({ hasText: MSG.addUserTenantName }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill(added.name);
    await page.getByLabel('School or organisation').fill(`${added.name} School`);
    await page.getByLabel('Email', { exact: true }).fill(added.email);
    await page.getByLabel('Username', { exact: true }).fill(added.userName);
    await page.getByLabel('Password', { exact: true }).fill(added.password);
    await page.getByText('Monthly', { exact: true }).click();
    await page.getByTestId('plan-8').click();
    // Educator sells seats: at least its 10, here 14.
    await page.getByTestId('add-user-seats').fill('14');
    await page.getByTestId('add-user-price').getByText('14 users', { exact: false }).waitFor();
    await page.getByText('Subscribe to the Helix newsletter').click();
    await page.getByTestId('add-user-save').click();
    await page.locator('.ant-message').getByText(MSG.userAdded).waitFor();
    // The form is reset after success.
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('');

    await page.goto('/users');
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const row = page.locator('tr', { hasText: added.name });
    await row.waitFor();
    expect(await row.innerText()).toContain('Educator Monthly');
    // The school is named as given, not after its owner.
    expect(await row.innerText()).toContain(`${added.name} School`);
    // The row's menu: Delete is there but disabled (a school's owner deletes its users), View opens
    // the user's detail.
    await row.getByRole('button', { name: `Actions for ${added.name}` }).click();
    const menu = page.getByRole('menu', { name: `Actions for ${added.name}` });
    expect(await menu.getByRole('menuitem', { name: 'Delete' }).getAttribute('aria-disabled')).toBe('true');
    await menu.getByRole('menuitem', { name: 'View' }).click();
    await expectPath(page, /^\/users\/user-detail\/\d+$/);
    await page.getByText(added.email).first().waitFor();

    // The new owner can log in and is subscribed (their home is the model grid).
    const owner = await newPage(browser);
    await logIn(owner.page, added.email, added.password);
    await expectPath(owner.page, '/user/home');
    await owner.context.close();
  });

  it('creates a role, assigns it, and the user menu changes on their next request (no new login)', async () => {
    const { page } = admin;
    const user = await newPage(browser);
    await logIn(user.page, added.email, added.password);
    await user.page.goto('/user/settings/profile');
    expect(await settingsItems(user.page)).toEqual(expect.arrayContaining(['Profile', 'Branding', 'Users']));

    // Create Role with the transfer list.
    await page.goto('/roles');
    await page.getByTestId('create-role').click();
    const dialog = page.getByRole('dialog', { name: 'Create Role' });
    await dialog.getByTestId('role-name').fill(roleName);
    const left = dialog.locator('.ant-transfer-section').first();
    for (const permission of ['Model.listing.view', 'Model.view', 'Profile.view', 'Profile.update']) {
      await left
        .locator('.ant-transfer-list-content-item', {
          hasText: new RegExp(`^${permission.replace(/\./g, '\\.')}$`),
        })
        .click();
    }
    await dialog.locator('.ant-transfer-actions button').first().click();
    const right = dialog.locator('.ant-transfer-section').nth(1);
    await expect.poll(() => right.locator('.ant-transfer-list-content-item').count()).toBe(4);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.locator('.ant-message').getByText(MSG.roleCreated).waitFor();
    await page.locator('tr', { hasText: roleName }).waitFor();

    // Saving the same name again: 'Role Name already exists'.
    await page.getByTestId('create-role').click();
    const again = page.getByRole('dialog', { name: 'Create Role' });
    await again.getByTestId('role-name').fill(roleName);
    await again.getByRole('button', { name: 'Save' }).click();
    await page.locator('.ant-message').getByText(MSG.roleNameTaken).waitFor();
    await again.getByRole('button', { name: 'Cancel' }).click();

    // Assign: the new role instead of Admin.
    await page.goto('/permissions');
    await page.getByRole('heading', { name: 'Permissions', level: 1 }).waitFor();
    const row = page.locator('tr', { hasText: added.email });
    await row.getByRole('button', { name: 'Assign Roles' }).click();
    const assign = page.getByRole('dialog', { name: /Assign Roles/ });
    await assign
      .locator('.ant-select-selection-item', { hasText: 'Admin' })
      .locator('.ant-select-selection-item-remove')
      .click();
    await assign.getByTestId('assign-roles-select').click();
    await page.keyboard.type(roleName);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await assign.getByRole('button', { name: 'Save' }).click();
    await page.locator('.ant-message').getByText(MSG.rolesAssigned).waitFor();
    await row.getByText(roleName).waitFor();

    // The same session, next pages: Exit to the grid, then Settings again; the menu follows the new role
    // (the school's audit log and LMS settings are its owner's whatever the role, and this user owns
    // their school).
    await user.page.locator('nav[aria-label="Settings"]').getByText('Exit', { exact: true }).click();
    await expectPath(user.page, '/user/home');
    await user.page.getByTestId('user-menu').click();
    await user.page.getByRole('menuitem', { name: 'Settings' }).click();
    await expect
      .poll(() => settingsItems(user.page), { timeout: 15_000 })
      .toEqual(['Profile', 'Audit log', 'LMS (LTI)']);
    await user.context.close();
  });

  it('exports the newsletter list to CSV and XLSX with the right rows', async () => {
    const { page } = admin;
    await page.goto('/news-letter');
    await page.getByRole('heading', { name: 'Newsletter Subscribers', level: 1 }).waitFor();
    await page.locator('tr', { hasText: added.email }).waitFor();

    // Search (by the server): the export follows the search, every matching row.
    await page.getByLabel('Search e-mail').fill(id);
    await expect.poll(() => page.getByTestId('subscribers-total').innerText()).toBe('1 subscribers');
    await expect.poll(() => page.locator('tbody tr.ant-table-row').count()).toBe(1);

    await page.getByTestId('export').click();
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'CSV' }).click(),
    ]);
    const rows = Papa.parse<string[]>(readFileSync((await csv.path())!, 'utf8').trim()).data;
    expect(rows[0]).toEqual(['Email', 'Created At']);
    expect(rows.slice(1).map((r) => r[0])).toEqual([added.email]);
    expect(rows[1]![1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}:\d{2}$/);

    await page.getByTestId('export').click();
    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'XLSX' }).click(),
    ]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const sheet = await readSheet(readFileSync((await xlsx.path())!));
    expect(sheet).toEqual([
      ['Email', 'Created At'],
      [added.email, rows[1]![1]],
    ]);
  });
  it('views a role read-only and deletes a custom role after the confirmation', async () => {
    const { page } = admin;
    await page.goto('/roles');
    const row = page.locator('tr', { hasText: roleName });
    await row.getByRole('button', { name: 'View' }).click();
    const view = page.getByRole('dialog', { name: `Role: ${roleName}` });
    await expect
      .poll(async () => (await view.getByTestId('role-permission').allInnerTexts()).sort())
      .toEqual(['Model.listing.view', 'Model.view', 'Profile.update', 'Profile.view']);
    await view.getByRole('button', { name: 'Close' }).click();

    // The built-in roles cannot be deleted.
    expect(
      await page.locator('tr', { hasText: /^User/ }).getByRole('button', { name: 'Delete' }).isDisabled(),
    ).toBe(true);

    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.locator('.ant-modal-confirm-title', { hasText: MSG.deleteRoleTitle }).waitFor();
    await confirm.getByText(MSG.deleteRoleBody).waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await page.locator('.ant-message').getByText(MSG.roleDeleted).waitFor();
    await row.waitFor({ state: 'detached' });
  });
});
