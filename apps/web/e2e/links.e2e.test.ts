import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@helix/shared';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO, expectPath, logIn } from './support/accounts.ts';
import { sql } from './support/billing.ts';

/**
 * A second user of the demo tenant who has never made a link (other browser tests make links as the
 * demo user, in whatever order the files run): same password and roles as the demo user.
 */
async function userWithoutLinks(): Promise<string> {
  const email = `nolinks${Date.now()}@demo.helix.local`;
  await sql(
    `INSERT INTO "User" ("tenantId", name, "userName", email, "passwordHash", "updatedAt")
     SELECT "tenantId", 'Nora Nolinks', $1, $2, "passwordHash", now() FROM "User" WHERE email = $3`,
    [`nolinks${Date.now()}`, email, DEMO.user.email],
  );
  await sql(
    `INSERT INTO "UserRole" ("userId", "roleId")
     SELECT (SELECT id FROM "User" WHERE email = $1), "roleId"
     FROM "UserRole" WHERE "userId" = (SELECT id FROM "User" WHERE email = $2)`,
    [email, DEMO.user.email],
  );
  return email;
}

/** The viewer frame of a share/embed page has reported 'ready' or 'error'. */
async function viewerState(page: Page): Promise<string | undefined> {
  const handle = await page.locator('iframe[title$="viewer"]').elementHandle({ timeout: 20_000 });
  const frame = await handle!.contentFrame();
  await frame!.waitForFunction(
    () => ['ready', 'error'].includes(document.body.dataset.viewerState ?? ''),
    null,
    {
      timeout: 45_000,
    },
  );
  return frame!.evaluate(() => document.body.dataset.viewerState);
}

describe('share and embed links (owner)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the empty state to a user without links', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, await userWithoutLinks(), DEMO.user.password);
    await page.goto('/user/settings/links');
    await page.getByRole('heading', { name: MSG.linksTitle }).waitFor();
    await page.getByText(MSG.noLinks).waitFor();
    await context.close();
  });

  it('makes a link with an expiry, counts a visitor once across reloads, lists it, revokes it', async () => {
    const owner = await newPage(browser);
    await logIn(owner.page, DEMO.owner.email, DEMO.owner.password);
    await expectPath(owner.page, '/user/home');
    const embedButton = owner.page.getByRole('button', { name: /^Embed / }).first();
    const modelName = ((await embedButton.getAttribute('aria-label')) ?? '').replace(/^Embed /, '');
    await embedButton.click();
    const dialog = owner.page.getByRole('dialog', { name: `Embed ${modelName}` });
    const expiry = dialog.getByLabel('Expires (optional)');
    await expiry.click();
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);
    await expiry.fill(tomorrow);
    await expiry.press('Enter');
    await dialog.getByRole('button', { name: 'Create Link' }).click();
    const link = dialog.getByRole('textbox', { name: 'Embed link' });
    await expect.poll(() => link.inputValue()).toMatch(/\/embed\/[A-Za-z0-9_-]{20,}$/);
    const embedPath = new URL(await link.inputValue()).pathname;
    await owner.page.keyboard.press('Escape');

    // A visitor opens the embed page and reloads it: one viewer, one view.
    const visitor = await newPage(browser);
    await visitor.page.goto(embedPath);
    expect(await viewerState(visitor.page)).toBe('ready');
    await visitor.page.reload();
    expect(await viewerState(visitor.page)).toBe('ready');

    await owner.page.goto('/user/settings/links');
    await owner.page.getByRole('heading', { name: MSG.linksTitle }).waitFor();
    const row = owner.page.getByRole('row').filter({ hasText: modelName }).filter({ hasText: tomorrow });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain('Olivia Owner');
    expect(text).toContain('Active');
    expect(await row.getByRole('cell').nth(5).innerText()).toBe('1');

    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = owner.page.getByRole('dialog', { name: MSG.revokeLinkTitle });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await row.getByText('Revoked').waitFor();
    expect(await row.getByRole('button', { name: 'Revoke' }).count()).toBe(0);

    // The visitor's next load (after the 3 s access cache) says the link is unavailable.
    await visitor.page.waitForTimeout(3_200);
    await visitor.page.reload();
    await visitor.page.getByTestId('link-unavailable').waitFor();
    await visitor.context.close();
    await owner.context.close();
  });
});
