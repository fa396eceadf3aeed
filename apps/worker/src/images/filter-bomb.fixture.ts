/**
 * The SVG filter bomb of issue 16: a few KB, 60 full-size rects each blurred with a huge
 * feGaussianBlur over a filter region as large as the picture. librsvg needs tens of seconds for it
 * at 1000 x 1000 (about 14 s here, 40 s on a loaded machine). Used by the image check's tests and the
 * fault suite (apps/api/faults/image-bombs.fault.test.ts).
 */
export function filterBombSvg(opts: { rects?: number; stdDeviation?: string; size?: number } = {}): Buffer {
  const { rects = 60, stdDeviation = '300', size = 1000 } = opts;
  const shapes = Array.from(
    { length: rects },
    (_, i) => `<rect x="${i}" y="${i}" width="${size}" height="${size}" filter="url(#b)"/>`,
  ).join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">` +
      `<filter id="b" filterUnits="userSpaceOnUse" x="-100000" y="-100000" width="200000" height="200000">` +
      `<feGaussianBlur stdDeviation="${stdDeviation}"/></filter>${shapes}</svg>`,
  );
}
