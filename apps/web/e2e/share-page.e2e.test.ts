import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { MSG } from '@helix/shared';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { createTenant, createUser } from '@helix/server/testing/factories';
import { appUrl, launchBrowser, newPage } from './support/browser.ts';

/**
 * /share/{token} is rendered by React on the server (apps/api/src/http/public-link-page.ts with the web's
 * server bundle), as /embed/{token} is: the school's header (its name, not its brand slug; its logo and
 * colour) above the viewer frame, in the page's first bytes. The browser hydrates it with React alone
 * (no antd, router, query client or session code), and its Copy link and Full screen buttons work. A
 * page load makes one API call, the viewer's.
 */

const id = randomBytes(3)
  .toString('hex')
  .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!);
const PRIMARY = '#0a6e3c';
const LOGO = '/apple-touch-icon-180x180.png';

/** The rgb() form the browser reports for a #rrggbb colour. */
const rgb = (hex: string) => {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
};

describe('the share page', () => {
  let browser: Browser;
  let db: Db;
  let apiToken: string;
  let tenantPrefix: string;
  let modelName: string;
  let modelId: number;

  /** A new share link of the school's model, made through the API as the owner. */
  async function shareLink(): Promise<string> {
    const answer = await fetch(appUrl(`/api/t/${tenantPrefix}/model/embed`), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiToken}` },
      body: JSON.stringify({ id: modelId, settings: ['info', 'zoom_controls'], kind: 'share' }),
    });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { token: string }).token;
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    db = createTestDb(inject('databaseUrl'));
    // A school of its own (Educator Monthly: Custom Branding, embedding) with a brand slug, a logo and a
    // colour, so the demo school other files use keeps its look.
    const plan = await db.plan.findUniqueOrThrow({ where: { id: 8 } });
    const tenant = await createTenant(db, {
      plan,
      name: `Hillside School ${id}`,
      customBrandName: `hill-${id}`,
    });
    tenantPrefix = tenant.domainPrefix;
    await db.branding.update({
      where: { tenantId: tenant.id },
      data: { primaryColor: PRIMARY, brandLogo: LOGO },
    });
    const password = `pw-${id}-share`;
    const owner = await createUser(db, { tenant, name: 'Sam Sharer', password, roles: ['Admin'] });
    const login = await fetch(appUrl('/api/user/login'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: owner.email, password }),
    });
    apiToken = ((await login.json()) as { apiToken: string }).apiToken;
    const model = await db.model.findFirstOrThrow({
      where: { isPublic: true, deletedAt: null, fileKey: { not: null } },
    });
    modelName = model.name;
    modelId = model.id;
  });
  afterAll(async () => {
    await browser?.close();
    await db?.$disconnect();
  });

  it("shows the school's header and the viewer, hydrated with React alone (not the app, antd or the router)", async () => {
    const token = await shareLink();
    const { context, page } = await newPage(browser);
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script' && r.frame() === page.mainFrame()) scripts.push(r.url());
    });
    await page.goto(`/share/${token}`);

    // The school's name (not its brand slug), its logo and its colour.
    const brand = page.getByTestId('share-brand');
    await expect.poll(() => brand.textContent()).toBe(`Hillside School ${id}`);
    await expect.poll(() => brand.evaluate((el) => getComputedStyle(el).color)).toBe(rgb(PRIMARY));
    const header = page.getByRole('banner');
    await expect
      .poll(() => header.evaluate((el) => getComputedStyle(el).borderBottomColor))
      .toBe(rgb(PRIMARY));
    const logo = brand.locator('img');
    expect(await logo.getAttribute('src')).toMatch(/\/apple-touch-icon-180x180\.png$/);
    await expect
      .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);

    // Landmarks and headings: the header, the model's name as the page's heading, the viewer in main.
    await page.getByRole('heading', { name: modelName, level: 1 }).waitFor();
    await page.getByText('Shared by Sam Sharer').waitFor();
    expect(await page.title()).toBe(`${modelName} · Helix`);
    const frameElement = page.getByRole('main').locator(`iframe[title="${modelName} viewer"]`);
    const handle = await frameElement.elementHandle({ timeout: 20_000 });
    const frame = (await handle!.contentFrame()) as Frame;
    await frame.waitForFunction(() => document.body.dataset.viewerState === 'ready', null, {
      timeout: 45_000,
    });
    expect(await frame.locator('[data-flag="zoom_controls"]').count()).toBeGreaterThan(0);
    expect(await frame.locator('[data-flag="layers"]').count()).toBe(0);

    // Hydrated by React alone: not the app, the router, the query client or antd.
    await page.locator('#root[data-hydrated="true"]').waitFor();
    expect(await page.evaluate(() => performance.getEntriesByName('helix:hydrated').length)).toBe(1);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((url) => /\/assets\/(main|app|antd|router|query|routes)[-.]/.test(url))).toEqual(
      [],
    );
    await context.close();
  });

  it("makes one API call per page load (the viewer's), and a reload stays one viewer", async () => {
    const token = await shareLink();
    const { context, page } = await newPage(browser);
    /** The API calls of every frame of the page (the model file and images are files, not calls). */
    const calls: URL[] = [];
    /** Downloads of the model file: one, started by the viewer document's preload and used by the viewer. */
    const modelFiles: URL[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/files/models/')) modelFiles.push(url);
      if (url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/files/')) calls.push(url);
    });
    /** The viewer document's preload of the model (its Link header). */
    const preloads: string[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'document' && new URL(r.url()).searchParams.has('glb')) {
        preloads.push(r.headers()['link'] ?? '');
      }
    });
    const ready = async () => {
      const handle = await page.locator('iframe.embed-frame').elementHandle({ timeout: 20_000 });
      const frame = (await handle!.contentFrame()) as Frame;
      await frame.waitForFunction(() => document.body.dataset.viewerState === 'ready', null, {
        timeout: 45_000,
      });
    };
    // The header and the frame are in the page's HTML: nothing is asked for before the frame starts.
    const html = await (await page.goto(`/share/${token}`))!.text();
    expect(html).toContain('data-testid="share-brand"');
    expect(html).toMatch(/<iframe[^>]+class="embed-frame"/);
    await ready();
    // Hydrated, and still nothing asked of the API but the viewer's one call.
    await page.locator('#root[data-hydrated="true"]').waitFor();
    expect(calls.map((u) => u.pathname)).toEqual(['/api/viewer/model']);
    const first = calls[0]!;
    expect(first.searchParams.get('viewer')).toMatch(/^vw1\./);
    expect(first.searchParams.has('kept')).toBe(false);
    expect(preloads).toHaveLength(1);
    expect(preloads[0]).toMatch(/^<[^>]+\/api\/files\/models\/\d+\?[^>]+>; rel=preload; as=fetch/);
    expect(modelFiles).toHaveLength(1);

    // A reload: again one call, sending the token the viewer kept from the first load.
    calls.length = 0;
    await page.reload();
    await ready();
    expect(calls.map((u) => u.pathname)).toEqual(['/api/viewer/model']);
    expect(calls[0]!.searchParams.get('kept')).toBe(first.searchParams.get('viewer'));
    await context.close();
  });

  /** A phone's page (390 px), with or without its scripts. */
  async function phone(javaScriptEnabled: boolean): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      baseURL: appUrl(),
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      javaScriptEnabled,
    });
    if (javaScriptEnabled) await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return { context, page };
  }

  /** The boxes of the page's parts: the same before and after hydration (no layout shift). */
  const boxes = (page: Page) =>
    page.evaluate(() =>
      [
        '.share-header',
        '[data-testid="share-brand"] img',
        '[data-testid="share-brand"] span',
        '.share-title',
        '[data-testid="share-copy"]',
        '[data-testid="share-full-screen"]',
        'iframe.embed-frame',
      ].map((selector) => {
        const r = document.querySelector(selector)!.getBoundingClientRect();
        return { selector, x: r.x, y: r.y, width: r.width, height: r.height };
      }),
    );

  it("keeps the viewer where it is while the school's logo arrives (no layout shift)", async () => {
    const token = await shareLink();
    const { context, page } = await phone(true);
    // The logo held back until the page has been drawn: its width is not known before it arrives.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/(apple-touch-icon-180x180\.png|favicon\.svg)$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/share/${token}`, { waitUntil: 'domcontentloaded' });
    const frame = page.locator('iframe.embed-frame');
    const top = () => frame.evaluate((el) => Math.round(el.getBoundingClientRect().top));
    const before = await top();
    release();
    await expect
      .poll(() =>
        page
          .getByTestId('share-brand')
          .locator('img')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    expect(await top()).toBe(before);
    // What the browser itself counted as layout shift over the load: none.
    const shifted = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let sum = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
              sum += entry.value;
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(sum), 200);
        }),
    );
    expect(shifted).toBe(0);
    await context.close();
  });

  it('fits a phone: its final layout without scripts, the same once hydrated, and its buttons work', async () => {
    const token = await shareLink();
    // Scripts blocked: the server's markup alone, the school's logo and name above the frame.
    const bare = await phone(false);
    await bare.page.goto(`/share/${token}`);
    const brand = bare.page.getByTestId('share-brand');
    expect(await brand.textContent()).toBe(`Hillside School ${id}`);
    await expect
      .poll(() =>
        brand.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    await bare.page.getByRole('heading', { name: modelName, level: 1 }).waitFor();
    expect(await bare.page.locator('iframe.embed-frame').count()).toBe(1);
    expect(await bare.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const before = await boxes(bare.page);
    expect(before.find((b) => b.selector === 'iframe.embed-frame')!.height).toBeGreaterThan(500);
    await bare.context.close();

    // With scripts: hydrated, the same boxes.
    const { context, page } = await phone(true);
    const calls: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/files/'))
        calls.push(url.pathname);
    });
    await page.goto(`/share/${token}`);
    await page.locator('#root[data-hydrated="true"]').waitFor();
    await expect
      .poll(() =>
        page
          .getByTestId('share-brand')
          .locator('img')
          .evaluate((img: HTMLImageElement) => img.complete),
      )
      .toBe(true);
    expect(await boxes(page)).toEqual(before);

    // Copy link, from the keyboard: the page's address, and the catalogue's word for it.
    await page.getByTestId('share-copy').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('share-said').textContent()).toBe(MSG.linkCopied);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    expect(await boxes(page)).toEqual(before);

    // Full screen, from the keyboard: the viewer's box fills the screen (the browser's full screen, or
    // the window where it has none), and leaves it again.
    await page.getByTestId('share-full-screen').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() =>
        page.evaluate(() => {
          const main = document.querySelector('.share-main')!;
          return document.fullscreenElement === main || main.getAttribute('data-covering') === 'true';
        }),
      )
      .toBe(true);
    const frame = await page.locator('iframe.embed-frame').boundingBox();
    expect(frame!.width).toBe(390);
    await page.evaluate(() => (document.fullscreenElement ? document.exitFullscreen() : undefined));
    await page.keyboard.press('Escape');
    await expect
      .poll(() =>
        page.evaluate(
          () => document.fullscreenElement === null && !document.querySelector('.share-main[data-covering]'),
        ),
      )
      .toBe(true);

    // Nothing asked of the API but the viewer's one call.
    const handle = await page.locator('iframe.embed-frame').elementHandle();
    const viewer = (await handle!.contentFrame()) as Frame;
    await viewer.waitForFunction(() => document.body.dataset.viewerState === 'ready', null, {
      timeout: 45_000,
    });
    expect(calls).toEqual(['/api/viewer/model']);
    await context.close();
  });

  it('says a revoked or made-up link is unavailable, with what to do', async () => {
    const token = await shareLink();
    const tokenHash = createHash('sha256').update(token).digest('hex');
    const revoked = await db.embedToken.updateMany({ where: { tokenHash }, data: { revokedAt: new Date() } });
    expect(revoked.count).toBe(1);

    const { context, page } = await newPage(browser);
    for (const path of [`/share/${token}`, '/share/not-a-real-token']) {
      await page.goto(path);
      const unavailable = page.getByTestId('link-unavailable');
      await unavailable.waitFor();
      await unavailable.getByRole('heading', { name: MSG.linkUnavailable, level: 1 }).waitFor();
      await unavailable.getByText(MSG.linkUnavailableHint).waitFor();
      expect(await page.locator('iframe').count()).toBe(0);
      expect(await page.getByTestId('share-brand').count()).toBe(0);
    }
    await context.close();
  });
});
