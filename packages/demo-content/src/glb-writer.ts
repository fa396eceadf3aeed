/**
 * Minimal, dependency-free glTF 2.0 binary (.glb) writer for the demo models.
 *
 * Why not @gltf-transform/core: it was not installed in this workspace when the demo content was
 * written. This writer covers exactly what the demo models need (meshes with POSITION/NORMAL and
 * indices, PBR materials, a node tree with extras, TRS animations) and keeps the output
 * byte-for-byte deterministic. `inspectGlb` (glb-inspect.ts) checks the structural rules.
 */
import type { MeshData } from './geometry.ts';
import { hexToRgb, srgbToLinear, type MaterialDef, type ModelDef, type PartDef } from './model-def.ts';

const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;
const FLOAT = 5126;
const UNSIGNED_SHORT = 5123;
const UNSIGNED_INT = 5125;
const TRIANGLES = 4;

type Json = Record<string, unknown>;

interface GltfJson {
  asset: Json;
  scene: number;
  scenes: Json[];
  nodes: Json[];
  meshes: Json[];
  materials: Json[];
  accessors: Json[];
  bufferViews: Json[];
  buffers: Json[];
  animations?: Json[];
}

class BinaryBody {
  private chunks: Uint8Array[] = [];
  private byteLength = 0;

  /** Append bytes at a 4-byte aligned offset; returns that offset. */
  append(bytes: Uint8Array): number {
    const pad = (4 - (this.byteLength % 4)) % 4;
    if (pad) {
      this.chunks.push(new Uint8Array(pad));
      this.byteLength += pad;
    }
    const offset = this.byteLength;
    this.chunks.push(bytes);
    this.byteLength += bytes.byteLength;
    return offset;
  }

  toBytes(): Uint8Array {
    const total = this.byteLength + ((4 - (this.byteLength % 4)) % 4);
    const out = new Uint8Array(total);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.byteLength;
    }
    return out;
  }
}

const bytesOf = (a: Float32Array | Uint16Array | Uint32Array) =>
  new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

export function modelToGltf(model: ModelDef): { json: GltfJson; bin: Uint8Array } {
  const body = new BinaryBody();
  const json: GltfJson = {
    asset: { version: '2.0', generator: 'Helix demo-content', copyright: 'Helix demo content (CC0 sources)' },
    scene: 0,
    scenes: [],
    nodes: [],
    meshes: [],
    materials: [],
    accessors: [],
    bufferViews: [],
    buffers: [],
  };
  const materialIndex = new Map<string, number>();
  const nodeIndexByName = new Map<string, number>();

  const addView = (data: Float32Array | Uint16Array | Uint32Array, target?: number): number => {
    const byteOffset = body.append(bytesOf(data));
    const view: Json = { buffer: 0, byteOffset, byteLength: data.byteLength };
    if (target) view.target = target;
    json.bufferViews.push(view);
    return json.bufferViews.length - 1;
  };

  const addAccessor = (accessor: Json): number => {
    json.accessors.push(accessor);
    return json.accessors.length - 1;
  };

  const addMaterial = (m: MaterialDef): number => {
    const existing = materialIndex.get(m.name);
    if (existing !== undefined) return existing;
    const [r, g, b] = hexToRgb(m.color).map(srgbToLinear) as [number, number, number];
    const opacity = m.opacity ?? 1;
    const mat: Json = {
      name: m.name,
      pbrMetallicRoughness: {
        baseColorFactor: [round6(r), round6(g), round6(b), round6(opacity)],
        metallicFactor: m.metallic ?? 0,
        roughnessFactor: m.roughness ?? 0.6,
      },
    };
    if (opacity < 1) mat.alphaMode = 'BLEND';
    if (m.doubleSided) mat.doubleSided = true;
    if (m.emissive) mat.emissiveFactor = hexToRgb(m.emissive).map((c) => round6(srgbToLinear(c)));
    json.materials.push(mat);
    materialIndex.set(m.name, json.materials.length - 1);
    return json.materials.length - 1;
  };

  const addMesh = (name: string, mesh: MeshData, material: MaterialDef): number => {
    const vertexCount = mesh.positions.length / 3;
    const positions = new Float32Array(mesh.positions);
    const normals = new Float32Array(mesh.normals);
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < positions.length; i++) {
      const k = i % 3;
      min[k] = Math.min(min[k]!, positions[i]!);
      max[k] = Math.max(max[k]!, positions[i]!);
    }
    const wide = vertexCount > 65535;
    const indices = wide ? new Uint32Array(mesh.indices) : new Uint16Array(mesh.indices);
    const position = addAccessor({
      bufferView: addView(positions, ARRAY_BUFFER),
      componentType: FLOAT,
      count: vertexCount,
      type: 'VEC3',
      min,
      max,
    });
    const normal = addAccessor({
      bufferView: addView(normals, ARRAY_BUFFER),
      componentType: FLOAT,
      count: vertexCount,
      type: 'VEC3',
    });
    const index = addAccessor({
      bufferView: addView(indices, ELEMENT_ARRAY_BUFFER),
      componentType: wide ? UNSIGNED_INT : UNSIGNED_SHORT,
      count: indices.length,
      type: 'SCALAR',
    });
    json.meshes.push({
      name,
      primitives: [
        {
          attributes: { POSITION: position, NORMAL: normal },
          indices: index,
          material: addMaterial(material),
          mode: TRIANGLES,
        },
      ],
    });
    return json.meshes.length - 1;
  };

  const addPart = (part: PartDef): number => {
    const node: Json = { name: part.name };
    json.nodes.push(node);
    const index = json.nodes.length - 1;
    if (nodeIndexByName.has(part.name)) throw new Error(`Duplicate node name: ${part.name}`);
    nodeIndexByName.set(part.name, index);
    if (part.mesh && part.mesh.indices.length > 0) {
      if (!part.material) throw new Error(`Part ${part.name} has a mesh but no material`);
      node.mesh = addMesh(part.name, part.mesh, part.material);
    }
    const extras: Json = { ...(part.extras ?? {}) };
    if (part.description) extras.description = part.description;
    if (Object.keys(extras).length) node.extras = extras;
    if (part.children?.length) node.children = part.children.map(addPart);
    return index;
  };

  const root = addPart(model.root);
  json.scenes.push({
    name: model.name,
    nodes: [root],
    extras: { title: model.name, urlModelName: model.urlModelName, description: model.description },
  });

  if (model.animations?.length) {
    json.animations = model.animations.map((anim) => {
      const samplers: Json[] = [];
      const channels: Json[] = [];
      for (const ch of anim.channels) {
        const node = nodeIndexByName.get(ch.node);
        if (node === undefined) throw new Error(`Animation ${anim.name} targets unknown node ${ch.node}`);
        const width = ch.path === 'rotation' ? 4 : 3;
        if (ch.values.length !== ch.times.length * width)
          throw new Error(`Animation ${anim.name}: bad value count`);
        const input = addAccessor({
          bufferView: addView(new Float32Array(ch.times)),
          componentType: FLOAT,
          count: ch.times.length,
          type: 'SCALAR',
          min: [Math.fround(Math.min(...ch.times))],
          max: [Math.fround(Math.max(...ch.times))],
        });
        const output = addAccessor({
          bufferView: addView(new Float32Array(ch.values)),
          componentType: FLOAT,
          count: ch.times.length,
          type: width === 4 ? 'VEC4' : 'VEC3',
        });
        samplers.push({ input, output, interpolation: 'LINEAR' });
        channels.push({ sampler: samplers.length - 1, target: { node, path: ch.path } });
      }
      return { name: anim.name, samplers, channels };
    });
  }

  const bin = body.toBytes();
  json.buffers.push({ byteLength: bin.byteLength });
  // Float32 min/max must equal the stored values exactly.
  for (const a of json.accessors) {
    if (Array.isArray(a.min)) a.min = (a.min as number[]).map((v) => Math.fround(v));
    if (Array.isArray(a.max)) a.max = (a.max as number[]).map((v) => Math.fround(v));
  }
  return { json, bin };
}

/** Pack glTF JSON + binary body into a GLB container (header, JSON chunk, BIN chunk). */
export function packGlb(json: unknown, bin: Uint8Array): Uint8Array {
  const jsonBytes = new TextEncoder().encode(JSON.stringify(json));
  const jsonPadded = jsonBytes.byteLength + ((4 - (jsonBytes.byteLength % 4)) % 4);
  const binPadded = bin.byteLength + ((4 - (bin.byteLength % 4)) % 4);
  const total = 12 + 8 + jsonPadded + (binPadded ? 8 + binPadded : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); // 'glTF'
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonPadded, true);
  view.setUint32(16, 0x4e4f534a, true); // 'JSON'
  out.set(jsonBytes, 20);
  out.fill(0x20, 20 + jsonBytes.byteLength, 20 + jsonPadded); // pad JSON with spaces
  if (binPadded) {
    const o = 20 + jsonPadded;
    view.setUint32(o, binPadded, true);
    view.setUint32(o + 4, 0x004e4942, true); // 'BIN\0'
    out.set(bin, o + 8);
  }
  return out;
}

export function modelToGlb(model: ModelDef): Uint8Array {
  const { json, bin } = modelToGltf(model);
  return packGlb(json, bin);
}
