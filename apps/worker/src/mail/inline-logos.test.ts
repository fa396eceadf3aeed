import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '@helix/server/storage/local-storage';
import { createInlineLogos, toInlineLogo } from './inline-logos.ts';

let dir: string;
let storage: LocalStorage;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'helix-mail-logos-'));
  storage = new LocalStorage(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#0a7d32' } });

describe("a school's logo made for e-mail", () => {
  it('fits the header box at twice its pixels, and is read and made once per logo version', async () => {
    await storage.put('images/logo-tall.webp', await image(100, 400).webp().toBuffer(), 'image/webp');
    let reads = 0;
    const counted = Object.assign(Object.create(storage) as LocalStorage, {
      getBytes: (key: string) => ((reads += 1), storage.getBytes(key)),
    });
    const logos = createInlineLogos({ storage: counted, publicUrl: 'https://portal.test' });
    const url = 'https://portal.test/api/files/images/logo-tall.webp';
    const [first, second] = await Promise.all([logos.inline(url), logos.inline(url)]);
    expect(first).toMatchObject({ width: 10, height: 40 });
    expect(await sharp(first!.png).metadata()).toMatchObject({ format: 'png', width: 20, height: 80 });
    expect(second).toBe(first);
    expect(await logos.inline(url)).toBe(first);
    expect(reads).toBe(1);
    // Another host's image or a path outside the stored images is never read.
    expect(await logos.inline('https://elsewhere.test/api/files/images/logo-tall.webp')).toBeNull();
    expect(reads).toBe(1);
  });

  it('is none for what is not a raster logo within the logo rule', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect(await toInlineLogo(svg)).toBeNull();
    expect(await toInlineLogo(Buffer.from('not an image'))).toBeNull();
    expect(await toInlineLogo(Buffer.alloc(0))).toBeNull();
    // Wider or taller than the logo rule (IMAGE_RULES.logo: 1000 x 1000 px): not decoded.
    expect(await toInlineLogo(await image(3000, 200).png().toBuffer())).toBeNull();
    // A small logo is not enlarged in its pixels, but shown filling the box.
    const small = await toInlineLogo(await image(60, 20).png().toBuffer());
    expect(small).toMatchObject({ width: 120, height: 40 });
    expect(await sharp(small!.png).metadata()).toMatchObject({ width: 60, height: 20 });
  });
});
