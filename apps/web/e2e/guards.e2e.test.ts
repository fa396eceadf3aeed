import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO, expectPath, logIn } from './support/accounts.ts';

describe('route guards in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function as(account: {
    email: string;
    password: string;
  }): Promise<{ context: BrowserContext; page: Page }> {
    const session = await newPage(browser);
    await logIn(session.page, account.email, account.password);
    return session;
  }

  it('sends a visitor who is not signed in to /login', async () => {
    const { context, page } = await newPage(browser);
    for (const path of ['/', '/users', '/user/home', '/user/settings/profile', '/stats']) {
      await page.goto(path);
      await expectPath(page, '/login');
    }
    // Public pages stay open.
    await page.goto('/forgot-password');
    await expectPath(page, '/forgot-password');
    await context.close();
  });

  it('sends a platform admin from / to /users and away from subscriber pages', async () => {
    const { context, page } = await as(DEMO.admin);
    await page.goto('/');
    await expectPath(page, '/users');
    for (const path of [
      '/user/home',
      '/user/settings/branding',
      '/user/settings/subscription',
      '/user/settings/users-list',
    ]) {
      await page.goto(path);
      await expectPath(page, '/unauthorized');
    }
    await page.goto('/projects');
    await expectPath(page, '/projects');
    // Guest pages send a signed-in user home.
    await page.goto('/login');
    await expectPath(page, '/users');
    await context.close();
  });

  it('keeps a subscriber user out of the admin pages', async () => {
    const { context, page } = await as(DEMO.user);
    await page.goto('/');
    await expectPath(page, '/user/home');
    for (const path of [
      '/users',
      '/roles',
      '/models',
      '/news-letter',
      '/users/user-detail/1',
      '/projects',
      // A subscriber page the member's role does not show: /unauthorized, not a list that fails to load.
      '/user/settings/users-list',
      // Statistics are an admin's (administration-content 2): the owner's and the Admin role's.
      '/stats',
    ]) {
      await page.goto(path);
      await expectPath(page, '/unauthorized');
    }
    await context.close();
  });

  it('shows a plain User only the model actions the server gives each model', async () => {
    const { context, page } = await as(DEMO.user);
    await page.goto('/user/home');
    const card = page.locator('.model-card').first();
    await card.waitFor();
    const name = (await card.getByRole('button', { name: /^Open / }).getAttribute('aria-label'))!.replace(
      /^Open /,
      '',
    );
    // The User role opens, shares and embeds; the catalogue's Edit and Delete are not theirs.
    await card.getByRole('button', { name: `Share ${name}` }).waitFor();
    await card.getByRole('button', { name: `Embed ${name}` }).waitFor();
    expect(await card.getByRole('button', { name: `Edit ${name}` }).count()).toBe(0);
    expect(await card.getByRole('button', { name: `Delete ${name}` }).count()).toBe(0);
    // No Add Model, and no Statistics in the header's menus.
    expect(await page.getByRole('button', { name: 'Add Model' }).count()).toBe(0);
    await context.close();
  });

  it('lets the owner open /stats and disables deleting their own row in the users list', async () => {
    const { context, page } = await as(DEMO.owner);
    await page.goto('/stats');
    await expectPath(page, '/stats');
    await page.getByRole('heading', { name: 'Statistics', level: 1 }).waitFor();
    await page.goto('/user/settings/users-list');
    const ownRow = page.getByRole('row').filter({ hasText: 'owner@demo.helix.local' });
    await ownRow.getByRole('button', { name: /^Actions for / }).click();
    const del = page.getByRole('menuitem', { name: 'Delete' });
    await del.waitFor();
    expect(await del.getAttribute('aria-disabled')).toBe('true');
    await context.close();
  });
});
