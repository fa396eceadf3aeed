import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { MSG } from '@helix/shared';
import { CHROMIUM_ARGS } from '@helix/stack/chromium';
import { newPage } from './support/browser.ts';
import { DEMO, expectPath, logIn } from './support/accounts.ts';
import { startHostServer } from './support/host-page.ts';

/**
 * Screen recording in the portal's viewer modal (Screen.record, plan screenRecord). The demo tenant is
 * on Educator (screenRecord): its owner holds the Admin role (Screen.record), its user the User role
 * (without). Chromium's fake microphone stands in for narration.
 */
const MODEL = 'Animal cell';

async function openViewer(page: Page): Promise<Frame> {
  await page
    .getByRole('button', { name: `Open ${MODEL}` })
    .first()
    .click();
  await page.getByRole('dialog', { name: MODEL }).waitFor();
  const handle = await page.locator(`iframe[title="${MODEL} viewer"]`).elementHandle({ timeout: 20_000 });
  const frame = (await handle!.contentFrame())!;
  await frame.waitForFunction(
    () => ['ready', 'error'].includes(document.body.dataset.viewerState ?? ''),
    null,
    { timeout: 45_000 },
  );
  expect(await frame.evaluate(() => document.body.dataset.viewerState)).toBe('ready');
  return frame;
}

/**
 * The duration Chromium gives the file once loaded into a <video> (seeking far resolves an unknown one),
 * and the share of colourful pixels in a frame from its middle.
 */
async function playedDuration(
  page: Page,
  url: string,
): Promise<{ duration: number; width: number; colourful: number }> {
  await page.goto(url);
  return page.evaluate(async () => {
    const video = document.querySelector('video')!;
    if (video.readyState < 1) {
      await new Promise<void>((resolve, reject) => {
        video.addEventListener('loadedmetadata', () => resolve(), { once: true });
        video.addEventListener('error', () => reject(new Error(`video error ${video.error?.code}`)), {
          once: true,
        });
      });
    }
    if (!Number.isFinite(video.duration)) {
      await new Promise<void>((resolve) => {
        video.addEventListener('durationchange', () => Number.isFinite(video.duration) && resolve());
        video.currentTime = 1e9;
      });
    }
    // A frame from the middle: the cell's coloured organelles, not an empty backdrop (which is grey).
    await new Promise<void>((resolve) => {
      video.addEventListener('seeked', () => resolve(), { once: true });
      video.currentTime = Math.min(1, video.duration / 2);
    });
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(video, 0, 0);
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let colourful = 0;
    for (let i = 0; i < data.length; i += 4) {
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 40) colourful += 1;
    }
    return { duration: video.duration, width: video.videoWidth, colourful: colourful / (data.length / 4) };
  });
}

describe('screen recording in the viewer modal', () => {
  let browser: Browser;
  let host: Awaited<ReturnType<typeof startHostServer>> | undefined;

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
    });
  });
  afterAll(async () => {
    await host?.close();
    await browser?.close();
  });

  it('a user with Screen.record records about 3 s with narration and downloads a file Chromium plays', async () => {
    const { context, page } = await newPage(browser);
    await context.grantPermissions(['microphone'], { origin: new URL(inject('viewerUrl')).origin });
    await logIn(page, DEMO.owner.email, DEMO.owner.password);
    await expectPath(page, '/user/home');
    const frame = await openViewer(page);

    const control = frame.locator('[data-feature="record"]');
    await control.getByRole('checkbox', { name: MSG.recordNarration }).check();
    await control.getByRole('button', { name: MSG.recordStart }).click();
    await frame.waitForFunction(() => document.body.dataset.recording === 'recording', null, {
      timeout: 15_000,
    });
    // Narration was granted (the fake microphone): no message.
    expect(await control.getByRole('alert').isHidden()).toBe(true);
    // The elapsed time is shown against the 5-minute maximum; record until it reads 0:03.
    const timer = control.getByRole('timer');
    await expect
      .poll(() => timer.textContent(), { timeout: 20_000, interval: 200 })
      .toMatch(/^0:0[3-9] \/ 5:00$/);
    await control.getByRole('button', { name: MSG.recordStop }).click();

    const preview = control.getByRole('region', { name: MSG.recordReady });
    await preview.waitFor({ timeout: 20_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      preview.getByRole('button', { name: MSG.recordDownload }).click(),
    ]);
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect(download.suggestedFilename()).toBe(`animal-cell-${day}.webm`);
    const file = path.join(os.tmpdir(), `helix-record-${Date.now()}.webm`);
    await download.saveAs(file);
    const bytes = await readFile(file);
    expect(bytes.length).toBeGreaterThan(1000);

    host = await startHostServer({
      '/': {
        type: 'text/html; charset=utf-8',
        body: '<!doctype html><video src="/recording.webm" preload="metadata" muted></video>',
      },
      '/recording.webm': { type: 'video/webm', body: bytes },
    });
    const player = await browser.newPage();
    const played = await playedDuration(player, host.url);
    expect(played.duration).toBeGreaterThanOrEqual(2);
    expect(played.duration).toBeLessThan(60);
    expect(played.width).toBeGreaterThan(0);
    expect(played.colourful).toBeGreaterThan(0.01);
    await player.close();

    // Discard returns to the Record button; the viewer still works.
    await preview.getByRole('button', { name: MSG.recordDiscard }).click();
    await control.getByRole('button', { name: MSG.recordStart }).waitFor();
    expect(await frame.evaluate(() => document.body.dataset.viewerState)).toBe('ready');
    await context.close();
  });

  it('a user without Screen.record sees no Record control', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.user.email, DEMO.user.password);
    await expectPath(page, '/user/home');
    const frame = await openViewer(page);
    expect(await frame.locator('[data-feature="record"]').count()).toBe(0);
    expect(await frame.getByRole('button', { name: MSG.recordStart }).count()).toBe(0);
    expect(
      await frame.evaluate(
        () => (window as unknown as { __viewer: { recording: unknown } }).__viewer.recording,
      ),
    ).toBeNull();
    await context.close();
  });
});
