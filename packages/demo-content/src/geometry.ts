/**
 * Procedural geometry for the demo models. The shapes (spheres/ellipsoids, cylinders, tubes along
 * curves, parametric sheets), their normals and transforms come from three.js; a part's mesh is kept
 * as plain arrays of numbers (MeshData) so the glTF writer and the thumbnail read it directly.
 */
import {
  BufferGeometry,
  CatmullRomCurve3,
  CircleGeometry,
  CylinderGeometry,
  Float32BufferAttribute,
  Matrix4,
  Quaternion,
  SphereGeometry,
  TubeGeometry,
  Vector3,
} from 'three';
import { ParametricGeometry } from 'three/addons/geometries/ParametricGeometry.js';
import { mergeGeometries } from 'three/addons/utils/BufferGeometryUtils.js';

export type Vec3 = [number, number, number];

export interface MeshData {
  positions: number[];
  normals: number[];
  indices: number[];
}

const emptyMesh = (): MeshData => ({ positions: [], normals: [], indices: [] });

// ---------- tuple helpers (the models place parts with [x, y, z] tuples) ----------
export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
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
const vec = (v: Vec3) => new Vector3(v[0], v[1], v[2]);
const tuple = (v: Vector3): Vec3 => [v.x, v.y, v.z];

/** Any unit vector perpendicular to v. */
export function perpendicular(v: Vec3): Vec3 {
  const n = vec(v).normalize();
  const other = Math.abs(n.y) < 0.9 ? new Vector3(0, 1, 0) : new Vector3(1, 0, 0);
  return tuple(n.cross(other).normalize());
}

/** Rotate v around an axis by angle. */
export const rotateAround = (v: Vec3, axis: Vec3, angle: number): Vec3 =>
  tuple(vec(v).applyAxisAngle(vec(axis).normalize(), angle));

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

// ---------- three.js <-> MeshData ----------

function toMesh(g: BufferGeometry): MeshData {
  const index = g.index ? Array.from(g.index.array) : [...Array(g.attributes.position!.count).keys()];
  return {
    positions: Array.from(g.attributes.position!.array),
    normals: Array.from(g.attributes.normal!.array),
    indices: index,
  };
}

function toGeometry(m: MeshData): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute('position', new Float32BufferAttribute(m.positions, 3));
  g.setAttribute('normal', new Float32BufferAttribute(m.normals, 3));
  g.setIndex(m.indices);
  return g;
}

// ---------- mesh operations ----------

/** One mesh holding all the given meshes. */
export const merge = (meshes: MeshData[]): MeshData =>
  meshes.length ? toMesh(mergeGeometries(meshes.map(toGeometry))) : emptyMesh();

/** Map every vertex, then recompute smooth normals. */
export function mapVertices(mesh: MeshData, fn: (p: Vec3) => Vec3): MeshData {
  const positions: number[] = [];
  for (let i = 0; i < mesh.positions.length; i += 3)
    positions.push(...fn([mesh.positions[i]!, mesh.positions[i + 1]!, mesh.positions[i + 2]!]));
  const g = toGeometry({ ...mesh, positions });
  g.computeVertexNormals();
  return toMesh(g);
}

export const translate = (mesh: MeshData, t: Vec3): MeshData =>
  toMesh(toGeometry(mesh).translate(t[0], t[1], t[2]));

/** Rigid transform: rotate local +Y onto `up`, then translate. */
export function orient(mesh: MeshData, up: Vec3, position: Vec3 = [0, 0, 0]): MeshData {
  const q = new Quaternion().setFromUnitVectors(new Vector3(0, 1, 0), vec(up).normalize());
  return toMesh(toGeometry(mesh).applyMatrix4(new Matrix4().compose(vec(position), q, new Vector3(1, 1, 1))));
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
  const g = new SphereGeometry(1, widthSegments, heightSegments);
  if (displace) {
    const p = g.attributes.position!;
    for (let i = 0; i < p.count; i++) {
      const k = 1 + displace([p.getX(i), p.getY(i), p.getZ(i)]);
      p.setXYZ(i, p.getX(i) * k, p.getY(i) * k, p.getZ(i) * k);
    }
  }
  g.scale(r[0], r[1], r[2]);
  if (displace) g.computeVertexNormals();
  return toMesh(g);
}

export const sphere = (radius: number, center: Vec3 = [0, 0, 0], w = 12, h = 8): MeshData =>
  toMesh(new SphereGeometry(radius, w, h).translate(center[0], center[1], center[2]));

/** Cylinder (or cone frustum) along +Y from y=0 to y=height. */
export const cylinder = (
  radiusBottom: number,
  radiusTop: number,
  height: number,
  radialSegments = 8,
  capped = true,
): MeshData =>
  toMesh(
    new CylinderGeometry(radiusTop, radiusBottom, height, radialSegments, 1, !capped).translate(
      0,
      height / 2,
      0,
    ),
  );

/** Cylinder from point a to point b. */
export function cylinderBetween(
  a: Vec3,
  b: Vec3,
  radius: number,
  radialSegments = 6,
  capped = false,
): MeshData {
  const d: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  return orient(cylinder(radius, radius, length(d), radialSegments, capped), d, a);
}

/**
 * Tube along a smooth (Catmull-Rom) curve through `points`, `segments` rings long. `radius` may
 * vary along the curve (t in [0, 1]). Ends are closed with flat discs when `caps` is true.
 */
export function tube(
  points: Vec3[],
  radius: number | ((t: number) => number),
  radialSegments = 8,
  caps = true,
  segments = points.length - 1,
): MeshData {
  if (points.length < 2) return emptyMesh();
  const radiusAt = (t: number) => (typeof radius === 'number' ? radius : radius(t));
  const curve = new CatmullRomCurve3(points.map(vec));
  const g = new TubeGeometry(curve, segments, 1, radialSegments, false);
  // TubeGeometry has one radius: move each ring's vertices out to that ring's radius.
  const p = g.attributes.position!;
  const row = radialSegments + 1;
  for (let i = 0; i <= segments; i++) {
    const centre = curve.getPointAt(i / segments);
    const r = radiusAt(i / segments);
    for (let j = 0; j < row; j++) {
      const k = i * row + j;
      const v = new Vector3(p.getX(k), p.getY(k), p.getZ(k)).sub(centre).multiplyScalar(r).add(centre);
      p.setXYZ(k, v.x, v.y, v.z);
    }
  }
  const parts: BufferGeometry[] = [g];
  if (caps) {
    for (const [i, sign] of [
      [0, -1],
      [segments, 1],
    ] as const) {
      const r = radiusAt(i / segments);
      if (r <= 0) continue;
      // A disc in the ring's frame, facing out of the tube end, with its rim on the ring's vertices.
      const normal = g.normals[i]!.clone().multiplyScalar(-sign);
      const basis = new Matrix4()
        .makeBasis(g.binormals[i]!, normal, g.tangents[i]!.clone().multiplyScalar(sign))
        .setPosition(curve.getPointAt(i / segments));
      parts.push(new CircleGeometry(r, radialSegments, (sign * Math.PI) / 2).applyMatrix4(basis));
    }
  }
  return toMesh(mergeGeometries(parts));
}

/** A parametric surface patch f(u, v) with u, v in [0, 1] (single-sided; use a double-sided material). */
export const surface = (f: (u: number, v: number) => Vec3, uSegments: number, vSegments: number): MeshData =>
  toMesh(new ParametricGeometry((u, v, target) => target.set(...f(u, v)), uSegments, vSegments));
