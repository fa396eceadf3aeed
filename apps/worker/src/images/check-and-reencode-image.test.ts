import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { IMAGE_CHECK_BUDGET } from '@helix/shared/images';
import { checkAndReencodeImage } from './check-and-reencode-image.ts';
import { useDraws } from './svg-budget.ts';
import { cssFilterBombSvg, filterBombSvg, useBombSvg } from './filter-bomb.fixture.ts';

/**
 * The budget's limits with a time limit no loaded machine reaches: for the SVGs that must pass, since
 * the rasteriser's process may take seconds to start beside a busy test run (the time limit has its
 * own case below).
 */
const UNHURRIED = { ...IMAGE_CHECK_BUDGET, seconds: 120 };

const image = (width: number, height: number, format: 'png' | 'jpeg' | 'webp' | 'gif' | 'tiff' = 'png') =>
  sharp({ create: { width, height, channels: 3, background: '#5f51fb' } })
    .toFormat(format)
    .toBuffer();

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG of a few hundred bytes that declares width x height (a decompression bomb's header). */
function bombPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('checkAndReencodeImage', () => {
  it('accepts jpeg, png and webp and re-encodes a thumbnail to a 480x360 WebP', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const result = await checkAndReencodeImage(await image(800, 600, format), 'thumbnail');
      expect(result.ok, format).toBe(true);
      if (!result.ok) continue;
      const meta = await sharp(result.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 480, 360]);
    }
  });

  it('refuses by content, whatever the name: text, GIF, TIFF', async () => {
    for (const bytes of [
      Buffer.from('hello, I am a .png'),
      await image(10, 10, 'gif'),
      await image(10, 10, 'tiff'),
      Buffer.alloc(0),
    ]) {
      expect(await checkAndReencodeImage(bytes, 'thumbnail')).toEqual({
        ok: false,
        message: MSG.imageTypeNotAllowed,
      });
    }
  });

  it('applies the spec limits per purpose', async () => {
    expect(await checkAndReencodeImage(await image(1001, 500), 'logo')).toEqual({
      ok: false,
      message: MSG.dimensionsOver1000,
    });
    expect(await checkAndReencodeImage(await image(1000, 1000), 'loading')).toMatchObject({ ok: true });
    expect(await checkAndReencodeImage(Buffer.alloc(1024 * 1024 + 1), 'logo')).toEqual({
      ok: false,
      message: MSG.fileOver1mb,
    });
    expect(await checkAndReencodeImage(await image(2000, 1500), 'background')).toMatchObject({ ok: true });
    expect(await checkAndReencodeImage(await image(4001, 10), 'background')).toEqual({
      ok: false,
      message: MSG.dimensionsOver4000,
    });
    expect(await checkAndReencodeImage(Buffer.alloc(5 * 1024 * 1024 + 1), 'background')).toEqual({
      ok: false,
      message: MSG.fileOver5mb,
    });
  });

  it('refuses a tiny PNG that declares 50000 x 50000 pixels without decoding it', async () => {
    const bomb = bombPng(50_000, 50_000);
    expect(bomb.length).toBeLessThan(2000);
    const started = Date.now();
    expect(await checkAndReencodeImage(bomb, 'thumbnail')).toEqual({
      ok: false,
      message: MSG.dimensionsOver1000,
    });
    expect(await checkAndReencodeImage(bomb, 'background')).toEqual({
      ok: false,
      message: MSG.dimensionsOver4000,
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('rasterises an SVG (scripts and all) to WebP', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" onload="alert(1)"><script>alert(2)</script><circle cx="20" cy="15" r="10" fill="red"/></svg>',
    );
    const result = await checkAndReencodeImage(svg, 'thumbnail', UNHURRIED);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect(result.bytes.includes(Buffer.from('script'))).toBe(false);
    expect([result.width, result.height]).toEqual([480, 360]);
    // A logo keeps its size (never enlarged).
    const logo = await checkAndReencodeImage(svg, 'logo', UNHURRIED);
    expect(logo).toMatchObject({ ok: true, width: 40, height: 30 });
  });

  it('refuses SVGs that declare entities or huge dimensions', async () => {
    const entities = Buffer.from(
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&b;</text></svg>',
    );
    expect(await checkAndReencodeImage(entities, 'logo')).toEqual({
      ok: false,
      message: MSG.imageTypeNotAllowed,
    });
    const huge = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="10" height="10"/></svg>',
    );
    expect(await checkAndReencodeImage(huge, 'logo')).toEqual({ ok: false, message: MSG.dimensionsOver1000 });
  });

  it('cuts a profile picture to a 256 x 256 square and keeps the 1000 x 1000 limit', async () => {
    const result = await checkAndReencodeImage(await image(900, 500), 'profile');
    expect(result).toMatchObject({ ok: true, width: 256, height: 256, contentType: 'image/webp' });
    expect(await checkAndReencodeImage(await image(1000, 1001), 'profile')).toEqual({
      ok: false,
      message: MSG.dimensionsOver1000,
    });
  });

  it('refuses the filter bomb (60 rects, stdDeviation 300) before rasterising it', async () => {
    const bomb = filterBombSvg();
    expect(bomb.length).toBeLessThan(5000);
    for (const purpose of ['profile', 'loading', 'background'] as const) {
      expect(await checkAndReencodeImage(bomb, purpose), purpose).toEqual({
        ok: false,
        message: MSG.imageTooComplex,
        code: 'IMAGE_TOO_COMPLEX',
      });
    }
    // The same blur hidden behind a character reference, or as a CSS blur(), is refused too.
    for (const svg of [
      filterBombSvg({ stdDeviation: '&#51;00' }),
      // One CSS rule blurring all 60 rects (about 3 KB).
      cssFilterBombSvg(),
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" style="filter: blur(300px)"/></svg>',
      ),
    ]) {
      expect(await checkAndReencodeImage(svg, 'logo')).toMatchObject({ code: 'IMAGE_TOO_COMPLEX' });
    }
  });

  it('kills the rasteriser of an SVG the filter scan lets through when it is over the time limit', async () => {
    // A budget with no filter limits: only the child process's time limit can stop this one (about
    // 14 s of librsvg on this machine at 1000 x 1000).
    const budget = { ...IMAGE_CHECK_BUDGET, seconds: 1, svgMaxBlur: Infinity, svgMaxFilterUses: Infinity };
    expect(await checkAndReencodeImage(filterBombSvg(), 'loading', budget)).toEqual({
      ok: false,
      message: MSG.imageTooComplex,
      code: 'IMAGE_TOO_COMPLEX',
    });
    // A blurred group drawn 1,500 times with <use>, with the <use> count unlimited: only the time limit.
    const useBomb = useBombSvg();
    const unlimitedUses = { ...IMAGE_CHECK_BUDGET, seconds: 1, svgMaxUseDraws: Infinity };
    expect(await checkAndReencodeImage(useBomb, 'profile', unlimitedUses)).toEqual({
      ok: false,
      message: MSG.imageTooComplex,
      code: 'IMAGE_TOO_COMPLEX',
    });
    // The worker still checks images afterwards (nothing left busy or broken).
    expect(await checkAndReencodeImage(await image(64, 64), 'profile')).toMatchObject({ ok: true });
  });

  it('refuses <use> bombs before rasterising, in milliseconds, and accepts an icon sheet', async () => {
    const tooComplex = { ok: false, message: MSG.imageTooComplex, code: 'IMAGE_TOO_COMPLEX' };
    let started = Date.now();
    expect(await checkAndReencodeImage(useBombSvg(), 'profile')).toEqual(tooComplex);
    expect(Date.now() - started).toBeLessThan(500);
    // Nested: 6 levels of 10 uses each draw a million elements from a few dozen lines.
    const levels = Array.from({ length: 6 }, (_, level) => {
      const uses = Array.from({ length: 10 }, () => `<use href="#l${level}"/>`).join('');
      return `<g id="l${level + 1}">${uses}</g>`;
    }).join('');
    const laughs = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><defs><rect id="l0" width="1" height="1"/>${levels}</defs><use xlink:href="#l6"/></svg>`,
    );
    started = Date.now();
    expect(await checkAndReencodeImage(laughs, 'logo')).toEqual(tooComplex);
    expect(Date.now() - started).toBeLessThan(500);
    expect(useDraws(laughs.toString(), IMAGE_CHECK_BUDGET.svgMaxUseDraws)).toBeGreaterThan(
      IMAGE_CHECK_BUDGET.svgMaxUseDraws,
    );
    // A use that draws itself: refused, not a stack overflow.
    expect(useDraws('<g id="a"><use href="#a"/></g><use href="#a"/>', 400)).toBeGreaterThan(400);
    // Twenty icons of a sheet, each drawn once: an ordinary SVG.
    const icons = Array.from({ length: 20 }, (_, i) => `<symbol id="i${i}"><circle r="4"/></symbol>`).join(
      '',
    );
    const drawn = Array.from({ length: 20 }, (_, i) => `<use href="#i${i}" x="${i * 5}" y="5"/>`).join('');
    const sheet = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="10">${icons}${drawn}</svg>`,
    );
    expect(useDraws(sheet.toString(), 400)).toBe(20);
    expect(await checkAndReencodeImage(sheet, 'logo', UNHURRIED)).toMatchObject({ ok: true });
  });

  it('still accepts an SVG logo with an ordinary drop shadow', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><filter id="s"><feDropShadow dx="2" dy="2" stdDeviation="3"/></filter><text x="10" y="60" filter="url(#s)">Helix</text><circle cx="150" cy="50" r="30" fill="teal" filter="url(#s)"/></svg>',
    );
    expect(await checkAndReencodeImage(svg, 'logo', UNHURRIED)).toMatchObject({
      ok: true,
      width: 200,
      height: 100,
    });
  });
});
