import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { imageFileProblem, isAcceptedImage } from './image-file-check';

const file = (name: string, type: string, bytes: number) => new File([new Uint8Array(bytes)], name, { type });
const sized = (width: number, height: number) => () => Promise.resolve({ width, height });

describe('imageFileProblem', () => {
  it('accepts jpg, jpeg, png, svg and webp only', () => {
    expect(isAcceptedImage({ name: 'a.JPG', type: '' })).toBe(true);
    expect(isAcceptedImage({ name: 'a', type: 'image/svg+xml' })).toBe(true);
    expect(isAcceptedImage({ name: 'a.gif', type: 'image/gif' })).toBe(false);
  });

  it('gives the spec message for size, then dimensions, per purpose', async () => {
    expect(await imageFileProblem(file('a.gif', 'image/gif', 10), 'logo', sized(1, 1))).toBe(
      MSG.imageTypeNotAllowed,
    );
    expect(await imageFileProblem(file('a.png', 'image/png', 1024 * 1024 + 1), 'logo', sized(1, 1))).toBe(
      MSG.fileOver1mb,
    );
    expect(await imageFileProblem(file('a.png', 'image/png', 10), 'loading', sized(1001, 10))).toBe(
      MSG.dimensionsOver1000,
    );
    expect(
      await imageFileProblem(file('a.png', 'image/png', 2 * 1024 * 1024), 'background', sized(10, 10)),
    ).toBe(null);
    expect(
      await imageFileProblem(file('a.png', 'image/png', 6 * 1024 * 1024), 'background', sized(1, 1)),
    ).toBe(MSG.fileOver5mb);
    expect(await imageFileProblem(file('a.png', 'image/png', 10), 'background', sized(4000, 4001))).toBe(
      MSG.dimensionsOver4000,
    );
    expect(await imageFileProblem(file('a.png', 'image/png', 10), 'profile', sized(1000, 1000))).toBe(null);
  });

  it('treats a file the browser cannot decode as not an image', async () => {
    const broken = () => Promise.reject(new Error('no'));
    expect(await imageFileProblem(file('a.png', 'image/png', 10), 'profile', broken)).toBe(
      MSG.imageTypeNotAllowed,
    );
  });
});
