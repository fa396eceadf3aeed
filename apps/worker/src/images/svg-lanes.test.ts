import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DelayedError } from 'bullmq';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_CHECK_BUDGET } from '@helix/shared/images';
import { LocalStorage } from '@helix/server/storage/local-storage';
import { validateImageHandler } from '../handlers/validate-image.handler.ts';
import { mayBeSvg, svgLanesFor } from './svg-lanes.ts';

/**
 * The image checks' lanes: SVG rasterising holds at most all but one of the family's slots, so a
 * bitmap is checked at once while SVGs of other schools are being rasterised.
 */
let dir: string;
let storage: LocalStorage;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'helix-lanes-'));
  storage = new LocalStorage(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30"/></svg>',
);
const png = () =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: '#5f51fb' } })
    .png()
    .toBuffer();

describe('SVG lanes', () => {
  it('leave one slot of four for bitmaps, and tell SVG (and gzip) from bitmaps', async () => {
    const lanes = svgLanesFor(4);
    expect([lanes.tryTake(), lanes.tryTake(), lanes.tryTake(), lanes.tryTake()]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    lanes.release();
    expect(lanes.tryTake()).toBe(true);
    expect(svgLanesFor(1).max).toBe(1);
    expect(mayBeSvg(SVG)).toBe(true);
    expect(mayBeSvg(Buffer.from('\uFEFF  <?xml version="1.0"?><svg/>'))).toBe(true);
    expect(mayBeSvg(Buffer.from([0x1f, 0x8b, 8, 0]))).toBe(true);
    expect(mayBeSvg(await png())).toBe(false);
  });

  it('an SVG check with every lane busy steps off its slot (delayed); a bitmap is checked at once', async () => {
    const lanes = svgLanesFor(2);
    expect(lanes.tryTake()).toBe(true); // another school's SVG being rasterised
    // The lanes, not the budget: a loaded machine may take seconds to start the rasteriser's process.
    const check = validateImageHandler({
      storage,
      svgLanes: lanes,
      budget: { ...IMAGE_CHECK_BUDGET, seconds: 120 },
    });
    const delayedTo: number[] = [];
    const job = { moveToDelayed: (at: number) => Promise.resolve(void delayedTo.push(at)) };

    await storage.put('tmp/svg-1', SVG, 'application/octet-stream');
    await expect(check({ key: 'tmp/svg-1', purpose: 'logo' }, job as never, 'token')).rejects.toBeInstanceOf(
      DelayedError,
    );
    expect(delayedTo).toHaveLength(1);
    expect(await storage.getBytes('tmp/svg-1')).not.toBeNull(); // left for its next turn

    await storage.put('tmp/png-1', await png(), 'application/octet-stream');
    expect(await check({ key: 'tmp/png-1', purpose: 'profile' }, job as never, 'token')).toMatchObject({
      ok: true,
    });

    lanes.release();
    expect(await check({ key: 'tmp/svg-1', purpose: 'logo' }, job as never, 'token')).toMatchObject({
      ok: true,
    });
    expect(lanes.busy).toBe(0);
  });
});
