/**
 * Browser smoke test of the model host: builds the demo models, serves the built viewer (dist/) and
 * the models from a second origin (CORS, like the API/storage), opens models in headless Chromium
 * (WebGL through SwiftShader) and checks pixels, the embed flags, the error overlays and framing.
 * The second origin also plays the API's GET /api/viewer/model (the catalogue lookup).
 * The main viewer server allows the development-only `src` parameter; a second one without that
 * option checks that production refuses it.
 *
 * dist/ is rebuilt first when it is missing or older than the viewer sources.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildDemoModels } from '@helix/demo-content/build-demo-models';
import { EMBED_FLAGS, type EmbedFlag } from '@helix/shared/embed';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '@helix/stack/chromium';
import { failOnPageErrors } from '@helix/stack/page-errors';
import sirv from 'sirv';
import { createViewerServer } from '../src/serve.ts';
import { distDir, ensureViewerBuilt } from './support/viewer-build.ts';

/** Flags that render a control (data-flag on the control's root element). */
const CONTROL_FLAGS: EmbedFlag[] = [
  'info',
  'draw',
  'play',
  'labels',
  'labels_ui',
  'layers',
  'full_screen',
  'zoom_controls',
  'table_of_content',
];
const BG = { hex: '#203040', rgb: [0x20, 0x30, 0x40] as const };

let browser: Browser;
let viewerServer: http.Server;
/** The same viewer without allowSrc (production): it must refuse `src`. */
let strictServer: http.Server;
let modelServer: http.Server;
let viewerOrigin = '';
let strictOrigin = '';
let modelOrigin = '';
let modelsDir = '';
/** Calls of the fake GET /api/viewer/model, per subscription (one per page load, one view each). */
const apiCalls = new Map<string, number>();
/** Every request the model/API origin received (path and query). */
const modelRequests: string[] = [];

const listen = (server: http.Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

beforeAll(async () => {
  modelsDir = await mkdtemp(path.join(tmpdir(), 'helix-viewer-e2e-'));
  await Promise.all([ensureViewerBuilt(), buildDemoModels(modelsDir)]);

  // The "API/storage" origin: demo models with CORS, plus canned failures and an embedding page.
  const serveModels = sirv(modelsDir, {
    dev: true,
    setHeaders: (res) => res.setHeader('Access-Control-Allow-Origin', '*'),
  });
  modelServer = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    modelRequests.push(url.pathname + url.search);
    const canned: Record<string, number> = {
      '/forbidden.glb': 403,
      '/limit.glb': 429,
      '/broken-server.glb': 500,
    };
    if (canned[url.pathname]) {
      res.writeHead(canned[url.pathname]!, {
        'Access-Control-Allow-Origin': '*',
        'Content-Type': 'application/json',
      });
      res.end(JSON.stringify({ statusCode: canned[url.pathname], message: 'nope' }));
      return;
    }
    if (url.pathname === '/api/viewer/model') {
      // The API's lookup (apps/api/MODELS-API.md): the subscription picks the canned answer.
      const sub = url.searchParams.get('subscription') ?? '';
      apiCalls.set(sub, (apiCalls.get(sub) ?? 0) + 1);
      const cors = { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' };
      const errors: Record<string, [number, string]> = {
        denied: [403, 'This link is not valid or is no longer available.'],
        limit: [429, 'View limit reached'],
      };
      if (sub === 'ok' && url.searchParams.get('model') === 'animal-cell') {
        res.writeHead(200, cors);
        res.end(
          JSON.stringify({
            name: 'Animal cell (API)',
            glbUrl: `${modelOrigin}/animal-cell.glb`,
            settings: ['info', 'background_color', 'center_model'],
            branding: {
              backgroundColor: BG.hex,
              primaryColor: '#5f51fb',
              modelBgLogo: null,
              modelLoadingLogo: null,
            },
          }),
        );
      } else {
        const [status, message] = errors[sub] ?? [404, 'Not found'];
        res.writeHead(status, cors);
        res.end(JSON.stringify({ statusCode: status, error: 'ERR', message }));
      }
      return;
    }
    if (url.pathname === '/corrupt.glb') {
      res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'model/gltf-binary' });
      res.end(Buffer.from('this is not a glb file at all'));
      return;
    }
    if (url.pathname === '/embed.html') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(
        `<!doctype html><body style="margin:0"><iframe id="f" title="viewer" allow="fullscreen" style="border:0;width:600px;height:400px" src="${url.searchParams.get('frame')}"></iframe></body>`,
      );
      return;
    }
    serveModels(req, res, () => void res.writeHead(404, { 'Access-Control-Allow-Origin': '*' }).end());
  });
  modelOrigin = await listen(modelServer);

  // The test loads demo files directly with ?src=, a development-only parameter.
  viewerServer = createViewerServer({ distDir, apiUrl: modelOrigin, allowSrc: true });
  viewerOrigin = await listen(viewerServer);
  strictServer = createViewerServer({ distDir, apiUrl: modelOrigin });
  strictOrigin = await listen(strictServer);

  browser = failOnPageErrors(await launchChromium());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => viewerServer?.close(r));
  await new Promise((r) => strictServer?.close(r));
  await new Promise((r) => modelServer?.close(r));
  if (modelsDir) await rm(modelsDir, { recursive: true, force: true });
});

function viewerUrl(model: string, query: Record<string, string> = {}): string {
  const q = new URLSearchParams({ src: `${modelOrigin}/${model}`, ...query });
  return `${viewerOrigin}/?${q}`;
}

async function open(url: string, viewport = { width: 800, height: 560 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.viewerState !== 'loading', null, {
    timeout: 60_000,
    polling: 100,
  });
  return page;
}

/** Share of screenshot pixels that differ clearly from a colour. */
async function shareDiffering(png: Buffer, rgb: readonly [number, number, number]): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let differing = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const d = Math.abs(data[i]! - rgb[0]) + Math.abs(data[i + 1]! - rgb[1]) + Math.abs(data[i + 2]! - rgb[2]);
    if (d > 30) differing++;
  }
  return differing / (info.width * info.height);
}

const presentFlags = (page: Page) =>
  page.evaluate(() =>
    [
      ...new Set([...document.querySelectorAll('[data-flag]')].map((e) => e.getAttribute('data-flag')!)),
    ].sort(),
  );

describe('viewer (built, in Chromium)', () => {
  it('renders the animal cell: canvas pixels differ from the background colour', async () => {
    const page = await open(
      viewerUrl('animal-cell.glb', { bg: BG.hex, settings: 'background_color,center_model' }),
    );
    const state = await page.evaluate(() => window.__viewer);
    expect(state.error).toBeNull();
    expect(state.ready).toBe(true);
    expect(state.partNames).toEqual(
      expect.arrayContaining(['Cell membrane', 'Nucleus', 'Mitochondria', 'Golgi apparatus']),
    );
    expect(await page.evaluate(() => document.body.dataset.background)).toBe('color');
    await page.waitForTimeout(300);
    const share = await shareDiffering(await page.screenshot(), BG.rgb);
    // The cell fills a good part of the frame; the rest is the tenant's background colour.
    expect(share).toBeGreaterThan(0.05);
    expect(share).toBeLessThan(0.95);
    // Without the background_color flag the branding colour is ignored.
    const plain = await open(viewerUrl('animal-cell.glb', { bg: BG.hex, settings: 'center_model' }));
    expect(await plain.evaluate(() => document.body.dataset.background)).toBe('default');
    expect(await shareDiffering(await plain.screenshot(), BG.rgb)).toBeGreaterThan(0.95);
    await Promise.all([page.close(), plain.close()]);
  }, 120_000);

  it('shows every flag control by default, each with an accessible name', async () => {
    const page = await open(viewerUrl('dna-double-helix.glb'));
    const state = await page.evaluate(() => window.__viewer);
    expect(state.settings).toEqual([...EMBED_FLAGS]);
    expect(await presentFlags(page)).toEqual([...CONTROL_FLAGS].sort());
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('[data-flag]')]
        .filter((e) => e.getAttribute('data-flag') !== 'labels')
        .filter((e) => !(e.getAttribute('aria-label') || e.textContent?.trim()))
        .map((e) => e.getAttribute('data-flag')),
    );
    expect(unnamed).toEqual([]);
    const body = await page.evaluate(() => ({ ...document.body.dataset }));
    expect(body).toMatchObject({
      viewerState: 'ready',
      panels: 'collapsed',
      layout: 'desktop',
      playing: 'true',
      centred: 'true',
    });
    // animate: the DNA's rotation animation is playing; play pauses it.
    expect(state.playing).toBe(true);
    await page.getByRole('button', { name: 'Pause' }).click();
    expect(await page.evaluate(() => window.__viewer.playing)).toBe(false);
    // labels are shown; labels_ui hides them.
    expect(state.labelsVisible).toBe(true);
    await page.getByRole('button', { name: 'Labels' }).click();
    expect(await page.evaluate(() => window.__viewer.labelsVisible)).toBe(false);
    // draw: annotate on top of the view, then clear; Escape leaves drawing mode.
    const drawButton = page.getByRole('button', { name: 'Draw', exact: true });
    await drawButton.click();
    expect(await drawButton.getAttribute('aria-pressed')).toBe('true');
    await page.mouse.move(420, 200);
    await page.mouse.down();
    await page.mouse.move(520, 280, { steps: 6 });
    await page.mouse.up();
    const clear = page.getByRole('button', { name: 'Clear drawing' });
    await expect.poll(() => clear.isVisible()).toBe(true);
    await clear.click();
    await expect.poll(() => clear.isVisible()).toBe(false);
    await page.keyboard.press('Escape');
    expect(await drawButton.getAttribute('aria-pressed')).toBe('false');
    await page.close();
  }, 120_000);

  it('removes the controls of flags that are off', async () => {
    const on = EMBED_FLAGS.filter((f) => f !== 'layers' && f !== 'zoom_controls');
    const page = await open(viewerUrl('animal-cell.glb', { settings: on.join(',') }));
    const present = await presentFlags(page);
    expect(present).not.toContain('layers');
    expect(present).not.toContain('zoom_controls');
    expect(present).toEqual(CONTROL_FLAGS.filter((f) => f !== 'layers' && f !== 'zoom_controls').sort());
    expect(await page.getByRole('button', { name: 'Zoom in' }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);

    const none = await open(viewerUrl('animal-cell.glb', { settings: '' }));
    expect(await presentFlags(none)).toEqual([]);
    expect(await none.evaluate(() => ({ ...document.body.dataset }))).toMatchObject({
      viewerState: 'ready',
      playing: 'false',
      centred: 'false',
      panels: 'expanded',
    });
    await Promise.all([page.close(), none.close()]);
  }, 120_000);

  it('layers, table of contents, zoom and keyboard act on the model', async () => {
    const page = await open(
      viewerUrl('animal-cell.glb', { settings: 'layers,table_of_content,zoom_controls,labels,center_model' }),
    );
    // hide_modal is off: panels start expanded.
    expect(await page.evaluate(() => document.body.dataset.panels)).toBe('expanded');
    const membraneLabel = page.locator('.label > span', { hasText: 'Cell membrane' });
    await expect.poll(() => membraneLabel.isVisible()).toBe(true);
    await page.getByRole('checkbox', { name: 'Cell membrane' }).uncheck();
    await expect.poll(() => membraneLabel.isVisible()).toBe(false);

    const before = await page.evaluate(() => window.__viewer.cameraDistance);
    await page.getByRole('button', { name: 'Nucleus', exact: true }).click();
    await expect.poll(() => page.evaluate(() => window.__viewer.highlighted)).toBe('Nucleus');
    await expect
      .poll(() => page.evaluate(() => window.__viewer.cameraDistance), { timeout: 10_000 })
      .toBeLessThan(before * 0.8);

    await page.keyboard.press('r');
    await expect
      .poll(() => page.evaluate(() => window.__viewer.cameraDistance), { timeout: 10_000 })
      .toBeCloseTo(before, 1);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect
      .poll(() => page.evaluate(() => window.__viewer.cameraDistance), { timeout: 10_000 })
      .toBeLessThan(before * 0.9);
    await page.keyboard.press('-');
    await page.keyboard.press('-');
    await expect
      .poll(() => page.evaluate(() => window.__viewer.cameraDistance), { timeout: 10_000 })
      .toBeGreaterThan(before * 1.1);
    await page.close();
  }, 120_000);

  it('honours center_model, desktop_view, background image and the loading image', async () => {
    const narrow = { width: 420, height: 640 };
    const mobile = await open(viewerUrl('neuron.glb', { settings: 'info' }), narrow);
    expect(await mobile.evaluate(() => ({ ...document.body.dataset }))).toMatchObject({
      layout: 'mobile',
      centred: 'false',
    });
    const desktop = await open(
      viewerUrl('neuron.glb', {
        settings: 'desktop_view,center_model,background',
        bgimage: `${modelOrigin}/animal-cell.webp`,
        loading: `${modelOrigin}/neuron.webp`,
      }),
      narrow,
    );
    expect(await desktop.evaluate(() => ({ ...document.body.dataset }))).toMatchObject({
      layout: 'desktop',
      centred: 'true',
      background: 'image',
    });
    expect(await desktop.locator('img[data-flag="background"]').count()).toBe(1);
    await Promise.all([mobile.close(), desktop.close()]);
  }, 120_000);

  it("keeps the neuron's part labels apart and inside a phone-sized frame", async () => {
    const page = await open(viewerUrl('neuron.glb', { settings: 'labels' }), { width: 390, height: 300 });
    await page.waitForFunction(() => document.querySelectorAll('.label > span').length > 0);
    const pills = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('.label'))
        .filter((label) => label.style.display !== 'none')
        .map((label) => {
          const r = label.querySelector('span')!.getBoundingClientRect();
          return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
        }),
    );
    expect(pills.length).toBeGreaterThan(0);
    for (const [i, a] of pills.entries()) {
      expect(a.left).toBeGreaterThanOrEqual(0);
      expect(a.top).toBeGreaterThanOrEqual(0);
      expect(a.right).toBeLessThanOrEqual(390);
      expect(a.bottom).toBeLessThanOrEqual(300);
      for (const b of pills.slice(i + 1)) {
        const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
        expect(apart, `labels overlap: ${JSON.stringify([a, b])}`).toBe(true);
      }
    }
    await page.close();
  });

  it('shows clear messages for missing, forbidden, over-limit and broken models', async () => {
    const cases: [string, string, string][] = [
      ['missing.glb', 'not-found', 'Model not found'],
      ['forbidden.glb', 'forbidden', 'Access denied'],
      ['limit.glb', 'limit', "This school's view limit is reached"],
      ['broken-server.glb', 'http', 'The model could not be loaded'],
      ['corrupt.glb', 'invalid', 'The model could not be loaded'],
    ];
    for (const [file, kind, title] of cases) {
      const page = await open(viewerUrl(file));
      expect(await page.evaluate(() => document.body.dataset.viewerState)).toBe('error');
      expect(await page.evaluate(() => window.__viewer.errorKind)).toBe(kind);
      await expect.poll(() => page.getByRole('alert').textContent()).toContain(title);
      await page.close();
    }
    const noModel = await open(`${viewerOrigin}/?model=unknown`);
    expect(await noModel.evaluate(() => window.__viewer.errorKind)).toBe('not-found');
    await noModel.close();
  }, 120_000);

  it('resolves a catalogue model through the API, once per load, and shows its refusals', async () => {
    const model = (subscription: string, mode = 'embedding') =>
      `${viewerOrigin}/?${new URLSearchParams({ model: 'animal-cell', subscription, currentmode: mode, version: '3' })}`;
    const page = await open(model('ok', 'standard'));
    const state = await page.evaluate(() => window.__viewer);
    expect(state.ready).toBe(true);
    // The API's settings, minus center_model in the portal's modal (standard mode).
    expect(state.settings).toEqual(['info', 'background_color']);
    expect(state.centred).toBe(false);
    expect(await page.evaluate(() => document.body.dataset.background)).toBe('color');
    await expect
      .poll(() => page.locator('section[data-flag="info"]').textContent())
      .toContain('Animal cell (API)');
    expect(apiCalls.get('ok')).toBe(1);

    const refusals: [string, string, string, string][] = [
      ['denied', 'forbidden', 'Access denied', 'This link is not valid or is no longer available.'],
      ['limit', 'limit', "This school's view limit is reached", 'next billing period'],
      ['unknown', 'not-found', 'Model not found', 'does not exist'],
    ];
    for (const [sub, kind, title, text] of refusals) {
      const failed = await open(model(sub));
      expect(await failed.evaluate(() => window.__viewer.errorKind)).toBe(kind);
      const alert = (await failed.getByRole('alert').textContent()) ?? '';
      expect(alert).toContain(title);
      expect(alert).toContain(text);
      expect(apiCalls.get(sub)).toBe(1);
      await failed.close();
    }
    await page.close();
  }, 120_000);

  it('refuses src on a server without allowSrc: Model not found, the file is never requested', async () => {
    const src = `${modelOrigin}/animal-cell.glb?probe=strict`;
    const query = new URLSearchParams({ src, name: 'Not Helix', bg: '#ff0000', settings: 'info' });
    const browserRequests: string[] = [];
    const page = await browser.newPage({ viewport: { width: 800, height: 560 } });
    page.on('request', (r) => browserRequests.push(r.url()));
    await page.goto(`${strictOrigin}/?${query}`);
    await page.waitForFunction(() => document.body.dataset.viewerState !== 'loading', null, {
      timeout: 60_000,
      polling: 100,
    });
    expect(await page.evaluate(() => document.body.dataset.viewerState)).toBe('error');
    expect(await page.evaluate(() => window.__viewer.errorKind)).toBe('not-found');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Model not found');
    expect(await page.locator('meta[name="helix-allow-src"]').getAttribute('content')).toBe('false');
    expect(await page.getByText('Not Helix').count()).toBe(0);
    expect(browserRequests.filter((u) => u.includes('probe=strict'))).toEqual([]);
    expect(modelRequests.filter((u) => u.includes('probe=strict'))).toEqual([]);
    await page.close();

    // The same URL on a server that allows src (tests, development) does load the file.
    const allowed = await open(`${viewerOrigin}/?${query}`);
    expect(await allowed.evaluate(() => window.__viewer.ready)).toBe(true);
    expect(modelRequests.filter((u) => u.includes('probe=strict'))).toHaveLength(1);
    await allowed.close();
  }, 120_000);

  it('can be framed by a page on another origin', async () => {
    const frameSrc = viewerUrl('ubiquitin-1ubq.glb', {
      bg: '#ffffff',
      settings: 'background_color,center_model',
    });
    const page = await browser.newPage({ viewport: { width: 640, height: 440 } });
    await page.goto(`${modelOrigin}/embed.html?frame=${encodeURIComponent(frameSrc)}`);
    const frame = page.frameLocator('#f');
    await expect
      .poll(() => frame.locator('body').getAttribute('data-viewer-state'), { timeout: 60_000 })
      .toBe('ready');
    const shot = await page.locator('#f').screenshot();
    expect(await shareDiffering(shot, [255, 255, 255])).toBeGreaterThan(0.02);
    await page.close();
  }, 120_000);
});
