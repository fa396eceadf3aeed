// Renders the PWA icons from one SVG. Run once after changing the glyph: node apps/web/scripts/make-icons.mjs
// (sharp is installed at the repository root). The PNGs are committed so builds need no image tooling.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const out = (name) => fileURLToPath(new URL(`../public/${name}`, import.meta.url));
const PRIMARY = '#5f51fb';

// A stylised double helix on a 512 grid: two crossing strands and three rungs.
const glyph = `
  <g fill="none" stroke="#ffffff" stroke-linecap="round" stroke-width="34">
    <path d="M176 96 C 400 176, 400 256, 256 256 S 112 336, 336 416" />
    <path d="M336 96 C 112 176, 112 256, 256 256 S 400 336, 176 416" />
    <path d="M214 146 H 298 M 214 366 H 298" stroke-width="22" />
  </g>`;

/** `scale` shrinks the glyph so a maskable icon keeps it inside the 80 % safe zone. */
const svg = ({ rounded, scale }) => {
  const offset = (512 - 512 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="512" height="512">
  <rect width="512" height="512" rx="${rounded ? 112 : 0}" fill="${PRIMARY}" />
  <g transform="translate(${offset} ${offset}) scale(${scale})">${glyph}</g>
</svg>`;
};

const regular = svg({ rounded: true, scale: 0.9 });
const fullBleed = svg({ rounded: false, scale: 0.72 });

const png = (source, size, name) =>
  sharp(Buffer.from(source)).resize(size, size).png({ compressionLevel: 9 }).toFile(out(name));

await writeFile(out('favicon.svg'), regular);
await png(regular, 192, 'pwa-192x192.png');
await png(regular, 512, 'pwa-512x512.png');
await png(fullBleed, 512, 'maskable-icon-512x512.png');
await png(fullBleed, 180, 'apple-touch-icon-180x180.png');
console.log('icons written to apps/web/public');
