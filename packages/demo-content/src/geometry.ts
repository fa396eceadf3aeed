/**
 * Small procedural geometry kit for the demo models: indexed triangle meshes with smooth normals,
 * plus the handful of shapes biology needs (spheres/ellipsoids, cylinders, tubes along curves, sheets).
 * Everything is plain arrays of numbers so the output is deterministic and easy to test.
 */

export type Vec3 = [number, number, number];

export interface MeshData {
  positions: number[];
  normals: number[];
  indices: number[];
}

export const emptyMesh = (): MeshData => ({ positions: [], normals: [], indices: [] });

// ---------- vector helpers ----------
export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const length = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
export const normalize = (a: Vec3): Vec3 => {
  const l = length(a);
  return l > 1e-12 ? scale(a, 1 / l) : [0, 1, 0];
};
export const lerp = (a: Vec3, b: Vec3, t: number): Vec3 => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

/** Any unit vector perpendicular to v. */
export function perpendicular(v: Vec3): Vec3 {
  const n = normalize(v);
  const other: Vec3 = Math.abs(n[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
  return normalize(cross(n, other));
}

/** Rotate v around a unit axis by angle (Rodrigues). */
export function rotateAround(v: Vec3, axis: Vec3, angle: number): Vec3 {
  const k = normalize(axis);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const kxv = cross(k, v);
  const kdv = dot(k, v);
  return [
    v[0] * c + kxv[0] * s + k[0] * kdv * (1 - c),
    v[1] * c + kxv[1] * s + k[1] * kdv * (1 - c),
    v[2] * c + kxv[2] * s + k[2] * kdv * (1 - c),
  ];
}

/** Deterministic pseudo-random numbers (mulberry32), so every build writes identical bytes. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------- mesh operations ----------

/** Append b into a (in place) and return a. */
export function mergeInto(a: MeshData, b: MeshData): MeshData {
  const offset = a.positions.length / 3;
  for (const v of b.positions) a.positions.push(v);
  for (const v of b.normals) a.normals.push(v);
  for (const i of b.indices) a.indices.push(i + offset);
  return a;
}

export function merge(meshes: MeshData[]): MeshData {
  const out = emptyMesh();
  for (const m of meshes) mergeInto(out, m);
  return out;
}

/** Map every vertex (and recompute smooth normals afterwards when the map is not rigid). */
export function mapVertices(mesh: MeshData, fn: (p: Vec3) => Vec3, recomputeNormals = true): MeshData {
  const positions: number[] = [];
  for (let i = 0; i < mesh.positions.length; i += 3) {
    const p = fn([mesh.positions[i]!, mesh.positions[i + 1]!, mesh.positions[i + 2]!]);
    positions.push(p[0], p[1], p[2]);
  }
  const out: MeshData = { positions, normals: mesh.normals.slice(), indices: mesh.indices.slice() };
  return recomputeNormals ? computeNormals(out) : out;
}

export function translate(mesh: MeshData, t: Vec3): MeshData {
  return mapVertices(mesh, (p) => add(p, t), false);
}

/**
 * Rigid transform: rotate so local +Y points along `up` (optionally twisted by `spin` around it),
 * then translate. Normals are rotated with the positions.
 */
export function orient(mesh: MeshData, up: Vec3, position: Vec3 = [0, 0, 0], spin = 0): MeshData {
  const y = normalize(up);
  let x = perpendicular(y);
  if (spin) x = rotateAround(x, y, spin);
  const z = cross(x, y);
  const apply = (v: Vec3): Vec3 => [
    x[0] * v[0] + y[0] * v[1] + z[0] * v[2],
    x[1] * v[0] + y[1] * v[1] + z[1] * v[2],
    x[2] * v[0] + y[2] * v[1] + z[2] * v[2],
  ];
  const positions: number[] = [];
  const normals: number[] = [];
  for (let i = 0; i < mesh.positions.length; i += 3) {
    const p = add(apply([mesh.positions[i]!, mesh.positions[i + 1]!, mesh.positions[i + 2]!]), position);
    const n = apply([mesh.normals[i]!, mesh.normals[i + 1]!, mesh.normals[i + 2]!]);
    positions.push(p[0], p[1], p[2]);
    normals.push(n[0], n[1], n[2]);
  }
  return { positions, normals, indices: mesh.indices.slice() };
}

/** Smooth vertex normals from area-weighted face normals. */
export function computeNormals(mesh: MeshData): MeshData {
  const n = new Array<number>(mesh.positions.length).fill(0);
  const p = mesh.positions;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const ia = mesh.indices[t]! * 3;
    const ib = mesh.indices[t + 1]! * 3;
    const ic = mesh.indices[t + 2]! * 3;
    const a: Vec3 = [p[ia]!, p[ia + 1]!, p[ia + 2]!];
    const e1 = sub([p[ib]!, p[ib + 1]!, p[ib + 2]!], a);
    const e2 = sub([p[ic]!, p[ic + 1]!, p[ic + 2]!], a);
    const f = cross(e1, e2);
    for (const i of [ia, ib, ic]) {
      n[i] = n[i]! + f[0];
      n[i + 1] = n[i + 1]! + f[1];
      n[i + 2] = n[i + 2]! + f[2];
    }
  }
  for (let i = 0; i < n.length; i += 3) {
    const v = normalize([n[i]!, n[i + 1]!, n[i + 2]!]);
    n[i] = v[0];
    n[i + 1] = v[1];
    n[i + 2] = v[2];
  }
  return { positions: mesh.positions, normals: n, indices: mesh.indices };
}

// ---------- primitives ----------

/**
 * UV ellipsoid centred at the origin. `radius` is a number or per-axis radii. `displace` may push
 * each point along its direction (for organic, lumpy shapes); normals are then recomputed.
 */
export function ellipsoid(
  radius: number | Vec3,
  widthSegments = 16,
  heightSegments = 12,
  displace?: (dir: Vec3) => number,
): MeshData {
  const r: Vec3 = typeof radius === 'number' ? [radius, radius, radius] : radius;
  const m = emptyMesh();
  for (let iy = 0; iy <= heightSegments; iy++) {
    const v = iy / heightSegments;
    const theta = v * Math.PI;
    for (let ix = 0; ix <= widthSegments; ix++) {
      const u = ix / widthSegments;
      const phi = u * Math.PI * 2;
      const dir: Vec3 = [-Math.cos(phi) * Math.sin(theta), Math.cos(theta), Math.sin(phi) * Math.sin(theta)];
      const k = displace ? 1 + displace(dir) : 1;
      m.positions.push(dir[0] * r[0] * k, dir[1] * r[1] * k, dir[2] * r[2] * k);
      const nrm = normalize([dir[0] / r[0], dir[1] / r[1], dir[2] / r[2]]);
      m.normals.push(nrm[0], nrm[1], nrm[2]);
    }
  }
  const row = widthSegments + 1;
  for (let iy = 0; iy < heightSegments; iy++) {
    for (let ix = 0; ix < widthSegments; ix++) {
      const a = iy * row + ix + 1;
      const b = iy * row + ix;
      const c = (iy + 1) * row + ix;
      const d = (iy + 1) * row + ix + 1;
      if (iy !== 0) m.indices.push(a, b, d);
      if (iy !== heightSegments - 1) m.indices.push(b, c, d);
    }
  }
  return displace ? computeNormals(m) : m;
}

export function sphere(radius: number, center: Vec3 = [0, 0, 0], w = 12, h = 8): MeshData {
  return translate(ellipsoid(radius, w, h), center);
}

/** Cylinder (or cone frustum) along +Y from y=0 to y=height. */
export function cylinder(
  radiusBottom: number,
  radiusTop: number,
  height: number,
  radialSegments = 8,
  capped = true,
): MeshData {
  const m = emptyMesh();
  const slope = (radiusBottom - radiusTop) / height;
  for (let iy = 0; iy <= 1; iy++) {
    const r = iy === 0 ? radiusBottom : radiusTop;
    for (let i = 0; i <= radialSegments; i++) {
      const a = (i / radialSegments) * Math.PI * 2;
      const s = Math.sin(a);
      const c = Math.cos(a);
      m.positions.push(r * s, iy * height, r * c);
      const n = normalize([s, slope, c]);
      m.normals.push(n[0], n[1], n[2]);
    }
  }
  const row = radialSegments + 1;
  for (let i = 0; i < radialSegments; i++) {
    m.indices.push(i, i + 1, row + i, i + 1, row + i + 1, row + i);
  }
  if (capped) {
    for (const [y, r, sign] of [
      [0, radiusBottom, -1],
      [height, radiusTop, 1],
    ] as const) {
      if (r <= 0) continue;
      const centre = m.positions.length / 3;
      m.positions.push(0, y, 0);
      m.normals.push(0, sign, 0);
      for (let i = 0; i <= radialSegments; i++) {
        const a = (i / radialSegments) * Math.PI * 2;
        m.positions.push(r * Math.sin(a), y, r * Math.cos(a));
        m.normals.push(0, sign, 0);
      }
      for (let i = 0; i < radialSegments; i++) {
        if (sign > 0) m.indices.push(centre, centre + 1 + i, centre + 2 + i);
        else m.indices.push(centre, centre + 2 + i, centre + 1 + i);
      }
    }
  }
  return m;
}

/** Cylinder from point a to point b. */
export function cylinderBetween(
  a: Vec3,
  b: Vec3,
  radius: number,
  radialSegments = 6,
  capped = false,
): MeshData {
  const d = sub(b, a);
  return orient(cylinder(radius, radius, length(d), radialSegments, capped), d, a);
}

/**
 * Tube along a polyline with rotation-minimising frames. `radius` may vary per point. Ends are
 * closed with flat caps when `caps` is true.
 */
export function tube(
  points: Vec3[],
  radius: number | ((i: number, t: number) => number),
  radialSegments = 8,
  caps = true,
): MeshData {
  const m = emptyMesh();
  const count = points.length;
  if (count < 2) return m;
  const radiusAt = (i: number) => (typeof radius === 'number' ? radius : radius(i, i / (count - 1)));
  const tangents: Vec3[] = points.map((_, i) => {
    const prev = points[Math.max(0, i - 1)]!;
    const next = points[Math.min(count - 1, i + 1)]!;
    return normalize(sub(next, prev));
  });
  let normal = perpendicular(tangents[0]!);
  for (let i = 0; i < count; i++) {
    const t = tangents[i]!;
    if (i > 0) {
      // Project the previous normal onto the plane of the new tangent (parallel transport).
      normal = normalize(sub(normal, scale(t, dot(normal, t))));
    }
    const binormal = cross(t, normal);
    const r = radiusAt(i);
    const p = points[i]!;
    for (let j = 0; j <= radialSegments; j++) {
      const a = (j / radialSegments) * Math.PI * 2;
      const dir = add(scale(normal, Math.cos(a)), scale(binormal, Math.sin(a)));
      const v = add(p, scale(dir, r));
      m.positions.push(v[0], v[1], v[2]);
      m.normals.push(dir[0], dir[1], dir[2]);
    }
  }
  const row = radialSegments + 1;
  for (let i = 0; i < count - 1; i++) {
    for (let j = 0; j < radialSegments; j++) {
      const a = i * row + j;
      const b = (i + 1) * row + j;
      m.indices.push(a, a + 1, b, b, a + 1, b + 1);
    }
  }
  if (caps) {
    for (const end of [0, count - 1]) {
      const r = radiusAt(end);
      if (r <= 0) continue;
      const sign = end === 0 ? -1 : 1;
      const n = scale(tangents[end]!, sign);
      const centre = m.positions.length / 3;
      const p = points[end]!;
      m.positions.push(p[0], p[1], p[2]);
      m.normals.push(n[0], n[1], n[2]);
      for (let j = 0; j <= radialSegments; j++) {
        const base = (end * row + j) * 3;
        m.positions.push(m.positions[base]!, m.positions[base + 1]!, m.positions[base + 2]!);
        m.normals.push(n[0], n[1], n[2]);
      }
      for (let j = 0; j < radialSegments; j++) {
        if (sign > 0) m.indices.push(centre, centre + 1 + j, centre + 2 + j);
        else m.indices.push(centre, centre + 2 + j, centre + 1 + j);
      }
    }
  }
  return m;
}

/** A parametric surface patch f(u, v) with u, v in [0, 1] (single-sided; use a double-sided material). */
export function surface(f: (u: number, v: number) => Vec3, uSegments: number, vSegments: number): MeshData {
  const m = emptyMesh();
  for (let j = 0; j <= vSegments; j++) {
    for (let i = 0; i <= uSegments; i++) {
      const p = f(i / uSegments, j / vSegments);
      m.positions.push(p[0], p[1], p[2]);
      m.normals.push(0, 1, 0);
    }
  }
  const row = uSegments + 1;
  for (let j = 0; j < vSegments; j++) {
    for (let i = 0; i < uSegments; i++) {
      const a = j * row + i;
      m.indices.push(a, a + 1, a + row, a + 1, a + row + 1, a + row);
    }
  }
  return computeNormals(m);
}

/** Smooth curve through control points (Catmull-Rom), `samples` points per segment. */
export function catmullRom(control: Vec3[], samples = 8): Vec3[] {
  if (control.length < 2) return control.slice();
  const out: Vec3[] = [];
  const n = control.length;
  for (let i = 0; i < n - 1; i++) {
    const p0 = control[Math.max(0, i - 1)]!;
    const p1 = control[i]!;
    const p2 = control[i + 1]!;
    const p3 = control[Math.min(n - 1, i + 2)]!;
    for (let s = 0; s < samples; s++) {
      const t = s / samples;
      const t2 = t * t;
      const t3 = t2 * t;
      const c = (k: 0 | 1 | 2) =>
        0.5 *
        (2 * p1[k] +
          (-p0[k] + p2[k]) * t +
          (2 * p0[k] - 5 * p1[k] + 4 * p2[k] - p3[k]) * t2 +
          (-p0[k] + 3 * p1[k] - 3 * p2[k] + p3[k]) * t3);
      out.push([c(0), c(1), c(2)]);
    }
  }
  out.push(control[n - 1]!);
  return out;
}

export function triangleCount(mesh: MeshData): number {
  return mesh.indices.length / 3;
}
