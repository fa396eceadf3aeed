import type { MeshData } from './geometry.ts';

/** sRGB hex colour such as '#e8b4a0'; converted to linear for glTF, used as-is for thumbnails. */
export type Hex = `#${string}`;

export interface MaterialDef {
  name: string;
  color: Hex;
  /** 1 = opaque (default); below 1 the material is written with alphaMode BLEND. */
  opacity?: number;
  metallic?: number;
  roughness?: number;
  doubleSided?: boolean;
  emissive?: Hex;
}

/** One named node of the model tree. Parts with a mesh are drawn; parts with children group. */
export interface PartDef {
  name: string;
  description?: string;
  mesh?: MeshData;
  material?: MaterialDef;
  children?: PartDef[];
  /** Written as glTF node extras (three.js puts them in Object3D.userData). */
  extras?: Record<string, unknown>;
}

export interface AnimationChannelDef {
  /** Name of the target node. */
  node: string;
  path: 'rotation' | 'translation' | 'scale';
  times: number[];
  /** Flat keyframe values: 4 per key for rotation (x, y, z, w), 3 otherwise. */
  values: number[];
}

export interface AnimationDef {
  name: string;
  channels: AnimationChannelDef[];
}

export interface ModelDef {
  /** Display name (catalogue 'name'). */
  name: string;
  /** URL-safe name (catalogue 'urlModelName'), also the file stem. */
  urlModelName: string;
  description: string;
  root: PartDef;
  animations?: AnimationDef[];
  /** Orthographic camera for the thumbnail: yaw around Y, then pitch, then roll in the image (radians). */
  thumbnail: { yaw: number; pitch: number; roll?: number; background: [Hex, Hex] };
}

export function hexToRgb(hex: Hex): [number, number, number] {
  const h = hex.slice(1);
  const full = h.length === 3 ? h.replace(/./g, (c) => c + c) : h;
  const n = parseInt(full, 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

export function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}

/** Walk the part tree depth-first. */
export function walkParts(part: PartDef, fn: (p: PartDef, depth: number) => void, depth = 0): void {
  fn(part, depth);
  for (const c of part.children ?? []) walkParts(c, fn, depth + 1);
}
