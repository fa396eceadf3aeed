/**
 * Thumbnails without a browser: the model's triangles are projected orthographically, shaded with a
 * directional light, depth-sorted (painter's algorithm) into an SVG and rasterised to WebP by sharp.
 */
import sharp from 'sharp';
import { hexToRgb, walkParts, type ModelDef } from './model-def.ts';
import type { Vec3 } from './geometry.ts';

export const THUMBNAIL_WIDTH = 512;
export const THUMBNAIL_HEIGHT = 384;

interface Tri {
  depth: number;
  d: string;
  fill: string;
  opacity: number;
}

const LIGHT: Vec3 = (() => {
  const l: Vec3 = [-0.45, 0.65, 0.62];
  const n = Math.hypot(...l);
  return [l[0] / n, l[1] / n, l[2] / n];
})();

const hex2 = (v: number) =>
  Math.max(0, Math.min(255, Math.round(v * 255)))
    .toString(16)
    .padStart(2, '0');

export function renderThumbnailSvg(
  model: ModelDef,
  width = THUMBNAIL_WIDTH,
  height = THUMBNAIL_HEIGHT,
): string {
  const { yaw, pitch, roll = 0, background } = model.thumbnail;
  const cr = Math.cos(roll);
  const sr = Math.sin(roll);
  const cy = Math.cos(yaw);
  const sy = Math.sin(yaw);
  const cp = Math.cos(pitch);
  const sp = Math.sin(pitch);
  // World -> view: rotate around Y by yaw, around X by pitch (tilt towards the viewer), then roll.
  const toView = (x: number, y: number, z: number): Vec3 => {
    const x1 = cy * x + sy * z;
    const z1 = -sy * x + cy * z;
    const y2 = cp * y - sp * z1;
    return [cr * x1 - sr * y2, sr * x1 + cr * y2, sp * y + cp * z1];
  };

  const parts: {
    positions: number[];
    normals: number[];
    indices: number[];
    color: Vec3;
    opacity: number;
    doubleSided: boolean;
  }[] = [];
  walkParts(model.root, (p) => {
    if (!p.mesh || !p.material || p.mesh.indices.length === 0) return;
    const view: number[] = [];
    const normals: number[] = [];
    for (let i = 0; i < p.mesh.positions.length; i += 3) {
      view.push(...toView(p.mesh.positions[i]!, p.mesh.positions[i + 1]!, p.mesh.positions[i + 2]!));
      normals.push(...toView(p.mesh.normals[i]!, p.mesh.normals[i + 1]!, p.mesh.normals[i + 2]!));
    }
    parts.push({
      positions: view,
      normals,
      indices: p.mesh.indices,
      color: hexToRgb(p.material.color),
      opacity: p.material.opacity ?? 1,
      doubleSided: p.material.doubleSided ?? false,
    });
  });

  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of parts) {
    for (let i = 0; i < p.positions.length; i += 3) {
      minX = Math.min(minX, p.positions[i]!);
      maxX = Math.max(maxX, p.positions[i]!);
      minY = Math.min(minY, p.positions[i + 1]!);
      maxY = Math.max(maxY, p.positions[i + 1]!);
    }
  }
  const margin = 0.1;
  const s = Math.min(
    (width * (1 - 2 * margin)) / (maxX - minX || 1),
    (height * (1 - 2 * margin)) / (maxY - minY || 1),
  );
  const ox = width / 2 - ((minX + maxX) / 2) * s;
  const oy = height / 2 + ((minY + maxY) / 2) * s;
  const sx = (x: number) => (ox + x * s).toFixed(1);
  const syy = (y: number) => (oy - y * s).toFixed(1);

  const tris: Tri[] = [];
  for (const p of parts) {
    const P = p.positions;
    const N = p.normals;
    for (let t = 0; t < p.indices.length; t += 3) {
      const a = p.indices[t]! * 3;
      const b = p.indices[t + 1]! * 3;
      const c = p.indices[t + 2]! * 3;
      // Screen-space signed area (y up): positive = facing the viewer.
      const area = (P[b]! - P[a]!) * (P[c + 1]! - P[a + 1]!) - (P[c]! - P[a]!) * (P[b + 1]! - P[a + 1]!);
      let facing = 1;
      if (area <= 0) {
        if (!p.doubleSided) continue;
        facing = -1;
      }
      if (Math.abs(area) * s * s < 0.02) continue;
      let nx = (N[a]! + N[b]! + N[c]!) * facing;
      let ny = (N[a + 1]! + N[b + 1]! + N[c + 1]!) * facing;
      let nz = (N[a + 2]! + N[b + 2]! + N[c + 2]!) * facing;
      const nl = Math.hypot(nx, ny, nz) || 1;
      nx /= nl;
      ny /= nl;
      nz /= nl;
      const diffuse = Math.max(0, nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2]);
      // Blinn-Phong highlight with the viewer on +z.
      const hx = LIGHT[0];
      const hy = LIGHT[1];
      const hz = LIGHT[2] + 1;
      const hl = Math.hypot(hx, hy, hz);
      const spec = Math.pow(Math.max(0, (nx * hx + ny * hy + nz * hz) / hl), 40) * 0.35;
      const shade = Math.round((0.38 + 0.7 * diffuse) * 24) / 24; // quantised: neighbours share a fill
      const fill = `#${hex2(p.color[0] * shade + spec)}${hex2(p.color[1] * shade + spec)}${hex2(p.color[2] * shade + spec)}`;
      tris.push({
        depth: (P[a + 2]! + P[b + 2]! + P[c + 2]!) / 3,
        d: `M${sx(P[a]!)} ${syy(P[a + 1]!)}L${sx(P[b]!)} ${syy(P[b + 1]!)}L${sx(P[c]!)} ${syy(P[c + 1]!)}Z`,
        fill,
        opacity: p.opacity,
      });
    }
  }
  tris.sort((p, q) => p.depth - q.depth);

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<defs><radialGradient id="bg" cx="50%" cy="40%" r="75%"><stop offset="0" stop-color="${background[1]}"/><stop offset="1" stop-color="${background[0]}"/></radialGradient></defs>`,
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>`,
  );
  // Consecutive triangles with the same fill become one path element (much smaller SVG).
  let i = 0;
  while (i < tris.length) {
    const first = tris[i]!;
    let d = first.d;
    let j = i + 1;
    while (j < tris.length && tris[j]!.fill === first.fill && tris[j]!.opacity === first.opacity)
      d += tris[j++]!.d;
    out.push(
      first.opacity < 1
        ? `<path d="${d}" fill="${first.fill}" fill-opacity="${first.opacity}"/>`
        : `<path d="${d}" fill="${first.fill}" stroke="${first.fill}" stroke-width="0.6" stroke-linejoin="round"/>`,
    );
    i = j;
  }
  out.push('</svg>');
  return out.join('\n');
}

export async function renderThumbnailWebp(model: ModelDef): Promise<Buffer> {
  const svg = renderThumbnailSvg(model);
  return (
    sharp(Buffer.from(svg), { limitInputPixels: false })
      // WebP as the portal's own uploads are re-encoded (apps/worker/src/images/check-and-reencode-image.ts):
      // the first thumbnail is the model grid's largest paint on a classroom tablet's network, and the
      // animal cell is 9 kB instead of 45 kB as a 256-colour PNG (161 kB as a full-colour one).
      .webp({ quality: 82, alphaQuality: 90 })
      .toBuffer()
  );
}
