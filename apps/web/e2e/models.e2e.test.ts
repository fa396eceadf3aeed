import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame, Page } from 'playwright-core';
import { buildDemoModels } from '@helix/demo-content/build-demo-models';
import { embedFlagLabel, MSG } from '@helix/shared';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO, expectPath, logIn } from './support/accounts.ts';
import { coverage } from './support/pixels.ts';

/** The viewer iframe's frame once its page reports a state. */
async function viewerFrame(page: Page, title: string): Promise<Frame> {
  const handle = await page.locator(`iframe[title="${title}"]`).elementHandle({ timeout: 20_000 });
  const frame = await handle!.contentFrame();
  await frame!.waitForFunction(
    () => ['ready', 'error'].includes(document.body.dataset.viewerState ?? ''),
    null,
    {
      timeout: 45_000,
    },
  );
  const state = await frame!.evaluate(() => ({
    state: document.body.dataset.viewerState,
    error: (window as unknown as { __viewer?: { error: string | null } }).__viewer?.error,
  }));
  expect(state, 'viewer state').toEqual({ state: 'ready', error: null });
  return frame!;
}

/** Reloads until the text appears (view counts are flushed from Redis every few seconds). */
async function eventually(page: Page, check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await page.waitForTimeout(1500);
    await page.reload();
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('models in the browser', () => {
  let browser: Browser;
  let files: string;
  const id = randomBytes(3).toString('hex');
  const name = `Neuron ${id}`;
  let embedUrl = '';

  beforeAll(async () => {
    browser = await launchBrowser();
    files = mkdtempSync(path.join(os.tmpdir(), 'helix-e2e-models-'));
    await buildDemoModels(files);
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(files, { recursive: true, force: true });
  });

  it('lets the platform admin add a model with a .glb and a thumbnail', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.admin.email, DEMO.admin.password);
    await page.goto('/models');
    await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Add Model' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Model' });
    // Wait for the form itself (the modal animates in) before submitting it empty.
    await dialog.getByLabel('Name', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog
      .locator('.ant-form-item-explain-error', { hasText: MSG.modelNameRequired })
      .waitFor({ timeout: 30_000 });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('URL name').fill(`neuron-${id}`);
    await dialog.getByLabel('Thumbnail').setInputFiles(path.join(files, 'neuron.webp'));
    await dialog.getByLabel('Model file').setInputFiles(path.join(files, 'neuron.glb'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
    await page.getByRole('button', { name: `Open ${name}` }).waitFor();
    const thumb = page.getByRole('listitem', { name }).locator('img').first();
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await context.close();
  });

  it('lets a tenant user search, sort, open the viewer and share an embed link with some features off', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.user.email, DEMO.user.password);
    await expectPath(page, '/user/home');
    await page.getByLabel('Search models').fill(id.toUpperCase());
    await page.getByRole('button', { name: `Open ${name}` }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: /^Open / }).count()).toBe(1);
    await page.getByLabel('Search models').fill('');

    // Sorting by name, both ways.
    await page.getByRole('combobox', { name: 'Sort models' }).selectOption({ label: 'Name (Z to A)' });
    await expect
      .poll(async () => {
        const names = (await page.getByRole('button', { name: /^Open / }).allInnerTexts()).length;
        return names > 1;
      })
      .toBe(true);
    const labels = await page
      .getByRole('button', { name: /^Open / })
      .evaluateAll((els) => els.map((el) => (el.getAttribute('aria-label') ?? '').replace(/^Open /, '')));
    // The grid's rule (list-models.query.ts): case ignored, numbers by value ("Cell 9" before "Cell 10").
    const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
    expect(labels).toEqual([...labels].sort((a, b) => byName.compare(b, a)));

    // The viewer modal renders the model: pixels, not just a canvas.
    await page.getByRole('button', { name: `Open ${name}` }).click();
    await page.getByRole('dialog', { name }).waitFor();
    const frame = await viewerFrame(page, `${name} viewer`);
    expect(await frame.locator('canvas').count()).toBeGreaterThan(0);
    await page.waitForTimeout(500);
    const shot = await page.locator(`iframe[title="${name} viewer"]`).screenshot();
    expect(await coverage(shot)).toBeGreaterThan(0.01);
    await page.keyboard.press('Escape');

    // An embed link with layers and zoom controls switched off.
    await page.getByRole('button', { name: `Embed ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Embed ${name}` });
    // The features in words, as on the Links page: no stored flag names such as labels_ui.
    await dialog.getByRole('checkbox', { name: 'Labels button', exact: true }).waitFor();
    expect(await dialog.locator('.embed-features').innerText()).not.toMatch(/\w_\w/);
    await dialog.getByRole('checkbox', { name: embedFlagLabel('layers'), exact: true }).uncheck();
    await dialog.getByRole('checkbox', { name: embedFlagLabel('zoom_controls'), exact: true }).uncheck();
    await dialog.getByRole('button', { name: 'Create Link' }).click();
    const link = dialog.getByRole('textbox', { name: 'Embed link' });
    await expect.poll(() => link.inputValue()).toMatch(/\/embed\/[A-Za-z0-9_-]{20,}$/);
    embedUrl = await link.inputValue();
    await context.close();
  });

  it('shows the embed to a visitor who is not signed in, honouring the chosen features', async () => {
    expect(embedUrl).not.toBe('');
    const { context, page } = await newPage(browser);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script' && r.frame() === page.mainFrame()) scripts.push(r.url());
    });
    await page.goto(new URL(embedUrl).pathname);
    const frameTitle = await page.locator('iframe[title$="viewer"]').getAttribute('title');
    // The embed page is not the app: no React, no router, no antd on the way to the frame.
    expect(scripts.filter((url) => /\/assets\/(react|main|antd)-/.test(url))).toEqual([]);
    const frame = await viewerFrame(page, frameTitle!);
    expect(await frame.locator('[data-flag="layers"]').count()).toBe(0);
    expect(await frame.locator('[data-flag="zoom_controls"]').count()).toBe(0);
    expect(await frame.locator('[data-flag="info"]').count()).toBeGreaterThan(0);
    expect(await frame.locator('[data-flag="table_of_content"]').count()).toBeGreaterThan(0);
    const shot = await page.locator('iframe[title$="viewer"]').screenshot();
    expect(await coverage(shot)).toBeGreaterThan(0.01);

    // The same link's share page is headed by the school's name (not its brand slug).
    await page.goto(new URL(embedUrl).pathname.replace('/embed/', '/share/'));
    await expect.poll(() => page.locator('.share-brand').textContent()).toBe('Demo School');

    // A made-up token gets a clear page, never a crash.
    await page.goto('/embed/not-a-real-token');
    await page.getByTestId('link-unavailable').waitFor();
    await context.close();
  });

  it('counts the views and shows them in the statistics', async () => {
    const user = await newPage(browser);
    await logIn(user.page, DEMO.user.email, DEMO.user.password);
    await user.page.getByLabel('Search models').fill(id);
    const card = user.page.getByRole('listitem', { name });
    // One load in the portal and one on the embed page, both for the demo tenant.
    await eventually(
      user.page,
      async () => (await card.innerText()).includes('Views: 2'),
      'the card to show 2 views',
    );
    await user.context.close();

    const admin = await newPage(browser);
    await logIn(admin.page, DEMO.admin.email, DEMO.admin.password);
    await admin.page.goto('/stats');
    const stats = admin.page.getByRole('article', { name });
    await eventually(
      admin.page,
      async () => (await stats.innerText()).includes('Website Views: 2'),
      'the stats to show 2 views',
    );
    expect(await stats.innerText()).toContain('Demo School');
    await admin.context.close();
  });
});
