import sharp from 'sharp';

/**
 * The share of pixels in a PNG that differ clearly from its top-left pixel (the viewer's background):
 * a rendered model covers part of the canvas, an empty or black canvas covers none.
 */
export async function coverage(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [r0, g0, b0] = [data[0]!, data[1]!, data[2]!];
  let differing = 0;
  const pixels = info.width * info.height;
  for (let i = 0; i < pixels; i += 1) {
    const o = i * info.channels;
    const d = Math.abs(data[o]! - r0) + Math.abs(data[o + 1]! - g0) + Math.abs(data[o + 2]! - b0);
    if (d > 48) differing += 1;
  }
  return differing / pixels;
}

/** The share of pixels in a PNG within `tolerance` (sum of channel differences) of an RGB colour. */
export async function shareOfColour(
  png: Buffer,
  rgb: [number, number, number],
  tolerance = 24,
): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let matching = 0;
  const pixels = info.width * info.height;
  for (let i = 0; i < pixels; i += 1) {
    const o = i * info.channels;
    const d = Math.abs(data[o]! - rgb[0]) + Math.abs(data[o + 1]! - rgb[1]) + Math.abs(data[o + 2]! - rgb[2]);
    if (d <= tolerance) matching += 1;
  }
  return matching / pixels;
}
