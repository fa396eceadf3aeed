import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { embedFlagLabel, MSG, type EmbedFlag } from '@helix/shared';
import { inject } from 'vitest';
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

/** A day `days` from today as the date pickers take it (YYYY-MM-DD). */
const dayFromNow = (days: number) => new Date(Date.now() + days * 24 * 3600_000).toISOString().slice(0, 10);

/** Makes a link from the home page's Share or Embed dialog with an expiry day; answers its address. */
async function makeLink(
  page: Page,
  verb: 'Share' | 'Embed',
  day: string,
  off: EmbedFlag[] = [],
): Promise<{ model: string; url: string }> {
  const button = page.getByRole('button', { name: new RegExp(`^${verb} `) }).first();
  const model = ((await button.getAttribute('aria-label')) ?? '').replace(new RegExp(`^${verb} `), '');
  await button.click();
  const dialog = page.getByRole('dialog', { name: `${verb} ${model}` });
  for (const flag of off)
    await dialog.getByRole('checkbox', { name: embedFlagLabel(flag), exact: true }).uncheck();
  const expiry = dialog.getByLabel('Expires (optional)');
  await expiry.click();
  await expiry.fill(day);
  await expiry.press('Enter');
  await dialog.getByRole('button', { name: 'Create Link' }).click();
  const link = dialog.getByRole('textbox', { name: `${verb} link` });
  await expect
    .poll(() => link.inputValue())
    .toMatch(new RegExp(`/${verb.toLowerCase()}/[A-Za-z0-9_-]{20,}$`));
  const url = await link.inputValue();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });
  return { model, url };
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** The table row (wide screens) whose address box holds `url`. */
async function rowWithUrl(page: Page, url: string): Promise<Locator> {
  await page.getByRole('table').waitFor();
  const key = await page.evaluate((wanted) => {
    const input = Array.from(document.querySelectorAll('input')).find((i) => i.value === wanted);
    return input?.closest('tr')?.dataset.rowKey ?? null;
  }, url);
  expect(key, `a row with ${url}`).not.toBeNull();
  return page.locator(`tr[data-row-key="${key}"]`);
}

describe('share and embed links (owner)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a loading skeleton (not the empty text), then the empty state to a user without links', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, await userWithoutLinks(), DEMO.user.password);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/model/links?*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/user/settings/links');
    await page.getByRole('heading', { name: MSG.linksTitle }).waitFor();
    await page.getByTestId('list-skeleton').waitFor();
    expect(await page.getByText(MSG.noLinks).count()).toBe(0);
    release();
    await page.getByText(MSG.noLinks).waitFor();
    expect(await page.getByTestId('list-skeleton').count()).toBe(0);
    await context.close();
  });

  it("says a failed read in the catalogue's words with Try again, which reads the list again", async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, await userWithoutLinks(), DEMO.user.password);
    await page.route('**/model/links?*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"message":"Down for a moment"}',
      }),
    );
    await page.goto('/user/settings/links');
    const failed = page.getByTestId('query-failed');
    await failed.getByText(MSG.failedLoadLinks).waitFor();
    expect(await page.getByText(MSG.noLinks).count()).toBe(0);
    await page.unroute('**/model/links?*');
    await failed.getByRole('button', { name: MSG.loadAgain }).click();
    await page.getByText(MSG.noLinks).waitFor();
    expect(await failed.count()).toBe(0);
    await context.close();
  });

  it('lists type, address and features in words; copies; changes the expiry; revokes; fits a phone', async () => {
    const owner = await newPage(browser);
    await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: inject('apiUrl') });
    await logIn(owner.page, DEMO.owner.email, DEMO.owner.password);
    await expectPath(owner.page, '/user/home');
    const tomorrow = dayFromNow(1);
    const share = await makeLink(owner.page, 'Share', tomorrow);
    const embed = await makeLink(owner.page, 'Embed', tomorrow, ['labels_ui', 'layers']);
    const embedPath = new URL(embed.url).pathname;

    // A visitor opens the embed page and reloads it: one viewer, one view.
    const visitor = await newPage(browser);
    await visitor.page.goto(embedPath);
    // The model's name is in the page under the frame from its first paint (the viewer paints over it).
    expect(await visitor.page.locator('.embed-caption').textContent()).toBe(embed.model);
    expect(await viewerState(visitor.page)).toBe('ready');
    await visitor.page.reload();
    expect(await viewerState(visitor.page)).toBe('ready');

    await owner.page.goto('/user/settings/links');
    await owner.page.getByRole('heading', { name: MSG.linksTitle }).waitFor();

    // The share link: its type and its /share address.
    const shareRow = await rowWithUrl(owner.page, share.url);
    // At 1280 px the secondary columns are folded into each row's details: their cells are there,
    // hidden, and the details show them (below).
    expect(await shareRow.textContent()).toContain(MSG.linkKindShare);
    expect(await shareRow.textContent()).toContain(share.model);

    // The embed link: type, address, features in words (never the stored names), maker, dates, views.
    const row = await rowWithUrl(owner.page, embed.url);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(embed.model);
    expect(text).toContain(MSG.linkKindEmbed);
    expect(text).toContain(
      MSG.linkFeaturesAllExcept(`${embedFlagLabel('labels_ui')}, ${embedFlagLabel('layers')}`),
    );
    expect(text).not.toContain('labels_ui');
    expect(await shareRow.textContent()).toContain(MSG.linkFeaturesAll);
    // The table fits its place: neither the page nor the table scrolls sideways.
    expect(
      await owner.page.evaluate(() => {
        const table = document.querySelector('.links-page table')!;
        return table.getBoundingClientRect().right <= table.closest('.rt')!.getBoundingClientRect().right;
      }),
    ).toBe(true);
    expect(await owner.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    expect(text).toContain('Olivia Owner');
    expect(text).toContain(tomorrow);
    expect(text).toContain('Active');
    expect(await row.locator('td[data-label="Views"]').textContent()).toBe('1');
    // The row's details show the folded columns: maker, dates, views.
    await row.getByRole('button', { name: MSG.showRowDetails }).click();
    const details = row.locator('xpath=following-sibling::tr[1]');
    await details.getByText('Olivia Owner').waitFor();
    expect(await details.innerText()).toContain(tomorrow);
    expect(await details.innerText()).toMatch(/Views\s+1/);

    // Copy the address, then the iframe code: the button says Copied, the clipboard holds it.
    await row.getByRole('button', { name: 'Copy link' }).click();
    await row.getByText(MSG.linkCopied).waitFor();
    expect(await clipboard(owner.page)).toBe(embed.url);
    await row.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(() => clipboard(owner.page)).toContain(`<iframe src="${embed.url}"`);

    // Change the expiry: a past day cannot be picked, a later one is saved and listed.
    const later = dayFromNow(3);
    await row.getByRole('button', { name: /Change expiry/ }).click();
    const dialog = owner.page.getByRole('dialog', { name: MSG.linkExpiryTitle });
    const picker = dialog.getByLabel('Expires', { exact: true });
    await picker.click();
    await picker.fill(later);
    await picker.press('Enter');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // (in the row's details, still open)
    await details.getByText(later).waitFor();
    expect(await details.innerText()).not.toContain(tomorrow);
    await owner.page.reload();
    expect(await (await rowWithUrl(owner.page, embed.url)).textContent()).toContain(later);

    // Revoke, with a confirmation.
    const current = await rowWithUrl(owner.page, embed.url);
    await current.getByRole('button', { name: /Revoke/ }).click();
    const confirm = owner.page.getByRole('dialog', { name: MSG.revokeLinkTitle });
    await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
    await confirm.waitFor({ state: 'hidden' });
    await current.getByText('Revoked', { exact: true }).waitFor();
    await current.getByText(MSG.linkUrlRevoked).waitFor();
    expect(await current.getByRole('button', { name: /Revoke/ }).count()).toBe(0);

    // The visitor's next load (after the 3 s access cache) says the link is unavailable.
    await visitor.page.waitForTimeout(3_200);
    await visitor.page.reload();
    await visitor.page.getByTestId('link-unavailable').waitFor();
    await visitor.context.close();

    // A phone (390 px; logging in there ends the desktop session, so last): cards, no sideways
    // scrolling, 44 px touch targets; with no clipboard at all, the copy says so and selects the
    // address to copy by hand.
    const phone = await browser.newContext({
      baseURL: inject('apiUrl'),
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const phonePage = await phone.newPage();
    phonePage.setDefaultTimeout(15_000);
    await logIn(phonePage, DEMO.owner.email, DEMO.owner.password);
    await phonePage.goto('/user/settings/links');
    await phonePage.locator('tr.link-row').first().waitFor();
    const cardId = await phonePage.evaluate((wanted) => {
      const input = Array.from(document.querySelectorAll('input')).find((i) => i.value === wanted);
      return input?.closest<HTMLElement>('tr.link-row')?.dataset.rowKey ?? null;
    }, share.url);
    const card = phonePage.locator(`tr.link-row[data-row-key="${cardId}"]`);
    expect(await card.innerText()).toContain(MSG.linkKindShare);
    expect(await phonePage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const name of ['Copy link', /Change expiry/, /Revoke/]) {
      const box = await card.getByRole('button', { name }).boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
      expect(box!.width).toBeGreaterThanOrEqual(44);
    }
    await phonePage.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
      document.execCommand = () => false;
    });
    await card.getByRole('button', { name: 'Copy link' }).click();
    await phonePage.getByText(MSG.clipboardFailed).waitFor();
    expect(
      await phonePage.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        return el ? el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0) : '';
      }),
    ).toBe(share.url);
    await phone.close();

    await owner.context.close();
  });
});
