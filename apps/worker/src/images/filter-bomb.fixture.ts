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

/**
 * The same blur as filterBombSvg in a CSS rule (one `filter:` for every rect): 60 rects, about 3 KB,
 * about 3 s at 256 px here without a budget.
 */
export function cssFilterBombSvg(rects = 60): Buffer {
  const shapes = Array.from(
    { length: rects },
    (_, i) => `<rect x="${i % 50}" y="${i % 40}" width="1000" height="1000"/>`,
  ).join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><style>rect{filter:url(#b)}</style>` +
      `<filter id="b" filterUnits="userSpaceOnUse" x="-100000" y="-100000" width="200000" height="200000">` +
      `<feGaussianBlur stdDeviation="90"/></filter>${shapes}</svg>`,
  );
}

/**
 * A bomb the filter scan does not recognise: one blurred group drawn `uses` times with <use> (one
 * filter reference in the text, `uses` x `blurs` blurs when rendered). 1,500 uses are over the scan's
 * count of draws. Under it, 300 uses of one blur took about 3 to 4 s for a profile picture on a 2-core
 * machine: inside the 5 s budget when the machine is idle, over it when loaded, so a test of the time
 * limit takes several chained blurs per draw (the scan counts filter references, not primitives) and is
 * over the budget on any machine.
 */
export function useBombSvg(uses = 1500, blurs = 1): Buffer {
  const copies = Array.from({ length: uses }, (_, i) => `<use href="#g" x="${i % 50}"/>`).join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><defs>` +
      `<filter id="b" filterUnits="userSpaceOnUse" x="-100000" y="-100000" width="200000" height="200000">` +
      `${'<feGaussianBlur stdDeviation="90"/>'.repeat(blurs)}</filter>` +
      `<g id="g" filter="url(#b)"><rect width="1000" height="1000"/></g>` +
      `</defs>${copies}</svg>`,
  );
}
