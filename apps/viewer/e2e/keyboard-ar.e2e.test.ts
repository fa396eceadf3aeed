/**
 * The viewer without a mouse, and its AR action by device capability (docs/accessibility.md,
 * docs/ar.md). The built viewer serves the demo models directly (`src`, allowed on this test server).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { buildDemoModels } from '@helix/demo-content/build-demo-models';
import { launchChromium } from '@helix/stack/chromium';
import { failOnPageErrors } from '@helix/stack/page-errors';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sirv from 'sirv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createViewerServer } from '../src/serve.ts';
import { distDir, ensureViewerBuilt } from './support/viewer-build.ts';

let browser: Browser;
let viewerServer: http.Server;
let modelServer: http.Server;
let viewerOrigin = '';
let modelOrigin = '';
let modelsDir = '';

const listen = (server: http.Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

beforeAll(async () => {
  modelsDir = await mkdtemp(path.join(tmpdir(), 'helix-viewer-a11y-'));
  await Promise.all([ensureViewerBuilt(), buildDemoModels(modelsDir, { thumbnails: false })]);
  const serveModels = sirv(modelsDir, {
    dev: true,
    setHeaders: (res) => res.setHeader('Access-Control-Allow-Origin', '*'),
  });
  modelServer = http.createServer((req, res) => serveModels(req, res, () => void res.writeHead(404).end()));
  modelOrigin = await listen(modelServer);
  viewerServer = createViewerServer({ distDir, apiUrl: modelOrigin, allowSrc: true });
  viewerOrigin = await listen(viewerServer);
  browser = failOnPageErrors(await launchChromium());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => viewerServer?.close(r));
  await new Promise((r) => modelServer?.close(r));
  if (modelsDir) await rm(modelsDir, { recursive: true, force: true });
});

const viewerUrl = (model: string, query: Record<string, string> = {}) =>
  `${viewerOrigin}/?${new URLSearchParams({ src: `${modelOrigin}/${model}`, ...query })}`;

async function open(
  url: string,
  setup: (context: BrowserContext) => Promise<unknown> = async () => {},
  reducedMotion: 'reduce' | 'no-preference' = 'no-preference',
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({ viewport: { width: 900, height: 620 }, reducedMotion });
  await setup(context);
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.viewerState === 'ready', null, { timeout: 60_000 });
  // The AR answer (or "off") is in once body[data-ar] is set.
  await page.waitForFunction(() => !!document.body.dataset.ar, null, { timeout: 10_000 });
  return { page, context };
}

const viewerState = (page: Page) => page.evaluate(() => window.__viewer);
const activeDescription = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el
      ? `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[${el.getAttribute('role')}]` : ''}`
      : '';
  });

/** WebXR with immersive-ar, as Chrome on an ARCore phone or tablet answers. */
const withWebXr = (context: BrowserContext) =>
  context.addInitScript(() => {
    Object.defineProperty(navigator, 'xr', {
      configurable: true,
      value: { isSessionSupported: (mode: string) => Promise.resolve(mode === 'immersive-ar') },
    });
  });

/** Quick Look, as Safari on an iPad announces it; the link's click is recorded instead of leaving. */
const withQuickLook = (context: BrowserContext) =>
  context.addInitScript(() => {
    const supports = DOMTokenList.prototype.supports;
    DOMTokenList.prototype.supports = function (token: string) {
      return token === 'ar' || supports.call(this, token);
    };
    const w = window as unknown as { __quickLook: { href: string; firstChild: string; rel: string }[] };
    w.__quickLook = [];
    HTMLAnchorElement.prototype.click = function () {
      w.__quickLook.push({
        href: this.href,
        rel: this.rel,
        firstChild: this.firstElementChild?.tagName ?? '',
      });
    };
  });

/** What AR looks like on this Chromium (no AR): no navigator.xr support answers immersive-ar. */
const withWebXrRefusing = (context: BrowserContext) =>
  context.addInitScript(() => {
    Object.defineProperty(navigator, 'xr', {
      configurable: true,
      value: { isSessionSupported: () => Promise.resolve(false) },
    });
  });

describe('View in AR, by what the device can do', () => {
  it('is offered with WebXR immersive-ar or Quick Look, absent without either or when the link turns it off', async () => {
    const arButton = (page: Page) => page.getByRole('button', { name: 'View in AR' });

    // This Chromium has no AR, nor has a device whose WebXR says no: no action at all.
    for (const setup of [undefined, withWebXrRefusing]) {
      const { page, context } = await open(viewerUrl('animal-cell.glb'), setup);
      expect((await viewerState(page)).ar).toBeNull();
      expect(await page.evaluate(() => document.body.dataset.ar)).toBe('none');
      expect(await page.locator('[data-flag="ar"]').count()).toBe(0);
      await context.close();
    }

    // Android Chrome (WebXR immersive-ar).
    {
      const { page, context } = await open(viewerUrl('animal-cell.glb'), withWebXr);
      expect((await viewerState(page)).ar).toBe('webxr');
      await expect.poll(() => arButton(page).getAttribute('data-ar-mode')).toBe('webxr');
      expect(await arButton(page).isVisible()).toBe(true);
      await context.close();
    }

    // iPad Safari (Quick Look): the USDZ is made from the model on use and opened through <a rel="ar"><img>.
    {
      const { page, context } = await open(viewerUrl('ubiquitin-1ubq.glb'), withQuickLook);
      expect((await viewerState(page)).ar).toBe('quick-look');
      await arButton(page).click();
      await page.waitForFunction(
        () => (window as unknown as { __quickLook: unknown[] }).__quickLook.length > 0,
      );
      const [opened] = await page.evaluate(
        () =>
          (window as unknown as { __quickLook: { href: string; firstChild: string; rel: string }[] })
            .__quickLook,
      );
      expect(opened).toMatchObject({ rel: 'ar', firstChild: 'IMG' });
      expect(opened!.href).toMatch(/^blob:/);
      // The file behind the link is a stored zip whose first entry is the USD stage.
      const head = await page.evaluate(async (href) => {
        const bytes = new Uint8Array(await (await fetch(href)).arrayBuffer());
        const name = new TextDecoder().decode(bytes.subarray(30, 30 + (bytes[26]! | (bytes[27]! << 8))));
        return {
          size: bytes.length,
          magic: String.fromCharCode(bytes[0]!, bytes[1]!),
          method: bytes[8],
          name,
        };
      }, opened!.href);
      expect(head).toMatchObject({ magic: 'PK', method: 0, name: 'model.usda' });
      expect(head.size).toBeGreaterThan(100_000);
      expect((await viewerState(page)).arState).toBe('idle');
      await context.close();
    }

    // A link made without the ar feature: no action even where the device could.
    {
      const { page, context } = await open(
        viewerUrl('animal-cell.glb', { settings: 'info,zoom_controls' }),
        withWebXr,
      );
      expect(await page.evaluate(() => document.body.dataset.ar)).toBe('off');
      expect(await arButton(page).count()).toBe(0);
      await context.close();
    }
  }, 180_000);
});

describe('the viewer by keyboard alone', () => {
  it('orbits, zooms, resets and visits every part from a text outline; axe finds nothing serious', async () => {
    const { page, context } = await open(
      viewerUrl('animal-cell.glb', { settings: 'info,zoom_controls,center_model' }),
    );
    const start = await viewerState(page);
    expect(start.partNames.length).toBeGreaterThan(3);

    // Tab reaches the 3D view first, which is named after the model and describes its keys.
    await page.keyboard.press('Tab');
    expect(await activeDescription(page)).toBe('canvas[img]');
    const canvas = page.locator('canvas[role="img"]');
    expect(await canvas.getAttribute('aria-label')).toMatch(/3D model/);
    expect(await page.locator('#viewer-keys-help').textContent()).toMatch(/Arrow keys/);

    // Arrow keys orbit, + and - zoom, R resets.
    const moved = async (key: string) => {
      const before = (await viewerState(page)).cameraPosition;
      await page.keyboard.press(key);
      await expect
        .poll(async () =>
          (await viewerState(page)).cameraPosition.some((v, i) => Math.abs(v - before[i]!) > 1e-3),
        )
        .toBe(true);
    };
    await moved('ArrowLeft');
    await moved('ArrowUp');
    const distance = (await viewerState(page)).cameraDistance;
    await page.keyboard.press('+');
    await expect.poll(async () => (await viewerState(page)).cameraDistance).toBeLessThan(distance * 0.9);
    await page.keyboard.press('-');
    await page.keyboard.press('-');
    await expect.poll(async () => (await viewerState(page)).cameraDistance).toBeGreaterThan(distance * 1.1);
    await page.keyboard.press('r');
    await expect
      .poll(async () =>
        (await viewerState(page)).cameraPosition.every(
          (v, i) => Math.abs(v - start.cameraPosition[i]!) < 1e-3,
        ),
      )
      .toBe(true);

    // The parts as a list a screen reader reads: named, one option per part, with descriptions.
    const outline = page.getByRole('listbox', { name: 'Parts of the model' });
    expect(await outline.getByRole('option').count()).toBe(start.partNames.length);
    for (const name of start.partNames)
      expect(await outline.getByRole('option', { name, exact: true }).count()).toBe(1);
    expect(await outline.locator('.parts-outline-description').count()).toBeGreaterThan(0);

    // Tab enters the list (one stop); focus highlights the part; arrows, Home and End move.
    await page.keyboard.press('Tab');
    expect(await activeDescription(page)).toBe('li[option]');
    await expect.poll(async () => (await viewerState(page)).highlighted).toBe(start.partNames[0]);
    const box = await page.locator('.parts-outline').boundingBox();
    expect(box!.width).toBeGreaterThan(100); // shown while the keyboard is in it
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await viewerState(page)).highlighted).toBe(start.partNames[1]);
    await page.keyboard.press('End');
    await expect.poll(async () => (await viewerState(page)).highlighted).toBe(start.partNames.at(-1));
    expect(await outline.getByRole('option', { selected: true }).textContent()).toContain(
      start.partNames.at(-1),
    );
    await page.keyboard.press('Home');
    await expect.poll(async () => (await viewerState(page)).highlighted).toBe(start.partNames[0]);
    // The arrows moved between parts, not the camera.
    expect((await viewerState(page)).cameraPosition).toEqual(start.cameraPosition);

    // Enter flies to the part (animated: motion is not reduced here) and keeps it after leaving the list.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await viewerState(page)).flights).toBe(1);
    await expect
      .poll(async () => (await viewerState(page)).cameraTarget.some((v) => Math.abs(v) > 1e-3))
      .toBe(true);
    await page.keyboard.press('Tab');
    expect((await viewerState(page)).highlighted).toBe(start.partNames[1]);
    expect(
      await page
        .locator('.parts-outline')
        .boundingBox()
        .then((b) => b!.width),
    ).toBeLessThan(2);

    // Back in the list, Escape clears the highlight; Tab-ing through then leaves none.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await viewerState(page)).highlighted).toBeNull();
    await page.keyboard.press('Tab');
    await expect.poll(async () => (await viewerState(page)).highlighted).toBeNull();

    // Every control on the way is reachable and named (the toolbar's Zoom and Reset buttons).
    const names: string[] = [];
    for (let i = 0; i < 8; i++) {
      names.push(
        await page.evaluate(
          () =>
            document.activeElement?.getAttribute('aria-label') ??
            document.activeElement?.textContent?.trim() ??
            '',
        ),
      );
      await page.keyboard.press('Tab');
    }
    expect(names).toEqual(expect.arrayContaining(['Zoom in', 'Zoom out', 'Reset view']));

    const axe = await new AxeBuilder({ page }).analyze();
    const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await context.close();
  }, 120_000);

  it('honours reduced motion: nothing turns on its own and the camera jumps to a part', async () => {
    // The DNA helix plays its animation on open (the animate feature) unless motion is reduced.
    const { page, context } = await open(viewerUrl('dna-double-helix.glb'), undefined, 'reduce');
    const state = await viewerState(page);
    expect(state.reducedMotion).toBe(true);
    expect(state.settings).toContain('animate');
    expect(state.playing).toBe(false);
    await page.locator('.parts-outline-item').first().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await viewerState(page)).cameraTarget.some((v) => Math.abs(v) > 1e-3))
      .toBe(true);
    expect((await viewerState(page)).flights).toBe(0);
    // Play still works when asked for.
    await page.getByRole('button', { name: 'Play' }).click();
    expect((await viewerState(page)).playing).toBe(true);
    await context.close();
  }, 120_000);
});
