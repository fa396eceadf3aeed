import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '@helix/stack/chromium';
import { inject } from 'vitest';
import { MSG } from '@helix/shared';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { createTenant, createUser } from '@helix/server/testing/factories';
import { appUrl, launchBrowser, newPage } from './support/browser.ts';
import { DEMO, expectPath, logIn, logOut } from './support/accounts.ts';

const id = randomBytes(3)
  .toString('hex')
  .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!);
const PRIMARY = '#0a7f3c';
const BACKGROUND = '#fff4e0';
const BRAND = `acme-${id}`;

const pngFile = async (name: string, width: number, height: number, colour: string) => ({
  name,
  mimeType: 'image/png',
  buffer: await sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer(),
});

/** The rgb() form the browser reports for a #rrggbb colour. */
const rgb = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

/** A section's link in the settings menu. */
const settingsLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name, exact: true });

async function pickColour(page: Page, testId: string, hex: string) {
  await page.getByTestId(testId).click();
  const input = page.locator('.ant-popover:visible .ant-color-picker-hex-input input');
  await input.fill(hex.slice(1));
  await input.press('Enter');
  await page.keyboard.press('Escape');
  await page.locator('.ant-popover:visible').waitFor({ state: 'hidden' });
}

describe('profile and branding in the browser', () => {
  let browser: Browser;
  let db: Db;
  let email: string;
  let password = `pw-${id}-first`;
  let tenantPrefix: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    db = createTestDb(inject('databaseUrl'));
    // A tenant of its own on the seeded Educator Monthly plan (Custom Branding, embedding), so the
    // demo accounts other files use keep their passwords and looks.
    const plan = await db.plan.findUniqueOrThrow({ where: { id: 8 } });
    const tenant = await createTenant(db, { plan, name: `Acme School ${id}` });
    tenantPrefix = tenant.domainPrefix;
    const owner = await createUser(db, { tenant, name: 'Olga Owner', password, roles: ['Admin'] });
    email = owner.email;
  });
  afterAll(async () => {
    await browser?.close();
    await db?.$disconnect();
  });

  it('edits the profile: picture, name and password; the header shows the new picture and name at once', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, email, password);
    await page.goto('/user/settings/profile');
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    await page.getByText(email).waitFor();
    await page.getByRole('button', { name: 'Edit Profile' }).click();

    // The e-mail is shown read-only.
    await expect.poll(() => page.getByLabel('Email').isDisabled()).toBe(true);

    // Password rules from the shared schema, verbatim.
    await page.getByLabel('New password').fill('abc');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.ant-form-item-explain-error', { hasText: MSG.oldPasswordRequired }).waitFor();
    await page.locator('.ant-form-item-explain-error', { hasText: MSG.passwordMin6 }).waitFor();
    await page.getByLabel('Old password').fill(password);
    await page.getByLabel('New password').fill(`pw-${id}-second`);
    await page.getByLabel('Confirm password').fill('something else');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.ant-form-item-explain-error', { hasText: MSG.newPasswordMismatch }).waitFor();
    await page.getByLabel('Confirm password').fill(`pw-${id}-second`);

    await page
      .locator('.image-picker input[type="file"]')
      .setInputFiles(await pngFile('me.png', 400, 300, '#d04040'));
    await page.getByTestId('Picture-preview').waitFor();
    await page.getByLabel('Full name').fill('Olga Renamed');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MSG.userUpdated).waitFor();

    // The header, without a reload.
    const menu = page.getByTestId('user-menu');
    await expect.poll(() => menu.getAttribute('aria-label')).toBe('User menu (Olga Renamed)');
    const avatar = menu.locator('img');
    await expect
      .poll(() => avatar.getAttribute('src'))
      .toMatch(/\/api\/files\/images\/profile-[\w-]+\.webp$/);
    await expect
      .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(256);

    // The new password is the one that works now.
    password = `pw-${id}-second`;
    await logOut(page);
    await logIn(page, email, password);
    await expect
      .poll(() => page.getByTestId('user-menu').getAttribute('aria-label'))
      .toBe('User menu (Olga Renamed)');
    await context.close();
  });

  it('saves colours, brand name and logo; asks before leaving unsaved changes', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, email, password);
    await page.goto('/user/settings/branding');
    await page.getByLabel('Brand name').waitFor();

    await page.getByLabel('Brand name').fill('Not A Slug!');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.ant-form-item-explain-error', { hasText: MSG.brandNameRule }).waitFor();
    await page.getByLabel('Brand name').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.ant-form-item-explain-error', { hasText: MSG.brandNameRequired }).waitFor();

    await page.getByLabel('Brand name').fill(BRAND);
    await pickColour(page, 'primary-colour', PRIMARY);
    await pickColour(page, 'background-colour', BACKGROUND);
    await page.locator('label.ant-radio-button-wrapper', { hasText: 'Black' }).click();
    await expect.poll(() => page.getByRole('radio', { name: 'Black' }).isChecked()).toBe(true);
    await page
      .locator('.image-picker input[type="file"]')
      .first()
      .setInputFiles(await pngFile('logo.png', 320, 200, '#2040c0'));
    await page.getByTestId('Logo-preview').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MSG.brandingUpdated).waitFor({ timeout: 30_000 });
    await page.getByText(`/login/${BRAND}`).waitFor();
    // The signed-in header carries the school's logo and brand name in its colour, at once and later.
    const mark = page.getByTestId('header-brand');
    await expect.poll(() => mark.textContent()).toBe(`Acme School ${id}`);
    await expect
      .poll(() => mark.locator('.logo-text').evaluate((el) => getComputedStyle(el).color))
      .toBe(rgb(PRIMARY));
    await expect.poll(() => mark.locator('img').getAttribute('src')).toMatch(/\/api\/files\/images\/logo-/);

    // Unsaved changes: the prompt, then leaving without saving.
    await page.getByLabel('Custom domain').fill(`models.${id}.example`);
    await settingsLink(page, 'Profile').click();
    const prompt = page.getByRole('dialog', { name: MSG.unsavedBranding });
    await prompt.waitFor();
    await prompt.getByRole('button', { name: 'No' }).click();
    await expectPath(page, '/user/settings/profile');

    // ... or saving on the way out.
    await settingsLink(page, 'Branding').click();
    await page.getByLabel('Custom domain').fill(`models.${id}.example`);
    await settingsLink(page, 'Profile').click();
    await prompt.waitFor();
    // The save's own answer: the first save's "Branding updated." toast may still be on screen.
    const savedOnLeaving = page.waitForResponse(
      (r) => new URL(r.url()).pathname.endsWith('/tenant/update') && r.request().method() === 'POST',
      { timeout: 30_000 },
    );
    await prompt.getByRole('button', { name: 'Yes' }).click();
    expect((await savedOnLeaving).status()).toBe(200);
    await expectPath(page, '/user/settings/profile');
    await context.close();

    const stored = await db.tenant.findUniqueOrThrow({
      where: { domainPrefix: tenantPrefix },
      include: { branding: true },
    });
    expect(stored).toMatchObject({ customBrandName: BRAND, customDomainName: `models.${id}.example` });
    expect(stored.branding).toMatchObject({
      primaryColor: PRIMARY,
      backgroundColor: BACKGROUND,
      textColor: '#000000',
    });
  });

  it('sends a user whose role lacks Brand.update from the branding page to /unauthorized', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.user.email, DEMO.user.password);
    await page.goto('/user/settings/branding');
    await expectPath(page, '/unauthorized');
    await context.close();
  });

  it('shows the tenant name, logo and colours on /login/{brand}', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`/login/${BRAND}`);
    await expect.poll(() => page.getByTestId('brand-name').textContent()).toBe(`Acme School ${id}`);
    // The school's name in the school's colour, not Helix purple.
    await expect
      .poll(() => page.getByTestId('brand-name').evaluate((el) => getComputedStyle(el).color))
      .toBe(rgb(PRIMARY));
    // A known brand is remembered: sign-outs and expired sessions come back to its login.
    const remembered = () => page.evaluate(() => window.localStorage.getItem('__custom__brand'));
    await expect.poll(remembered).toBe(BRAND);
    const logo = page.getByTestId('brand-logo');
    await expect.poll(() => logo.getAttribute('src')).toMatch(/\/api\/files\/images\/logo-[\w-]+\.webp$/);
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    const button = page.getByRole('button', { name: 'Log In', exact: true });
    await expect.poll(() => button.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(rgb(PRIMARY));
    await expect.poll(() => button.evaluate((b) => getComputedStyle(b).color)).toBe(rgb('#000000'));
    const layout = page.locator('.auth-layout');
    await expect
      .poll(() => layout.evaluate((el) => getComputedStyle(el).backgroundColor))
      .toBe(rgb(BACKGROUND));

    // The other white-label pages carry it too; an unknown brand shows Helix.
    await page.goto(`/forgot-password/${BRAND}`);
    await expect.poll(() => page.getByTestId('brand-name').textContent()).toBe(`Acme School ${id}`);
    const lookup = page.waitForResponse((r) => r.url().endsWith('/api/tenant/custom-branding-detail'));
    await page.goto('/login/no-such-brand');
    await page.getByRole('link', { name: 'Helix home' }).waitFor();
    await lookup;
    // An unknown brand is not remembered: the school's own stays.
    await page.waitForTimeout(300);
    expect(await remembered()).toBe(BRAND);
    await context.close();
  });

  it("brands the guest pages served on the tenant's custom domain", async () => {
    // The browser resolves the tenant's domain to this machine, as its CNAME would to the portal.
    const domain = `models.${id}.example`;
    const custom = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${domain} 127.0.0.1`],
    });
    try {
      const port = new URL(appUrl('/')).port;
      const page = await custom.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`http://${domain}:${port}/login`);
      await expect.poll(() => page.getByTestId('brand-name').textContent()).toBe(`Acme School ${id}`);
      const button = page.getByRole('button', { name: 'Log In', exact: true });
      await expect.poll(() => button.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(rgb(PRIMARY));
    } finally {
      await custom.close();
    }
  });

  it('brands the embed viewer with the tenant colours', async () => {
    const login = await fetch(appUrl('/api/user/login'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const { apiToken } = (await login.json()) as { apiToken: string };
    const model = await db.model.findFirstOrThrow({
      where: { isPublic: true, deletedAt: null, fileKey: { not: null } },
    });
    const embed = await fetch(appUrl(`/api/t/${tenantPrefix}/model/embed`), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiToken}` },
      body: JSON.stringify({ id: model.id, settings: ['info', 'background_color', 'zoom_controls'] }),
    });
    expect(embed.status).toBe(200);
    const { token } = (await embed.json()) as { token: string };

    const { context, page } = await newPage(browser);
    await page.goto(`/embed/${token}`);
    const handle = await page.locator('iframe[title$="viewer"]').elementHandle({ timeout: 20_000 });
    const frame = (await handle!.contentFrame()) as Frame;
    await frame.waitForFunction(() => document.body.dataset.viewerState === 'ready', null, {
      timeout: 45_000,
    });
    const look = await frame.evaluate(() => {
      const style = getComputedStyle(document.documentElement);
      return {
        accent: style.getPropertyValue('--accent').trim(),
        stage: style.getPropertyValue('--stage-bg').trim(),
        background: document.body.dataset.background,
      };
    });
    expect(look).toEqual({ accent: PRIMARY, stage: BACKGROUND, background: 'color' });
    await context.close();
  });
});
