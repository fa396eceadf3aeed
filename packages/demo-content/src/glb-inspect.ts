/**
 * Reads a .glb container and checks the structural rules of glTF 2.0 that matter for loaders:
 * header, chunk layout, JSON, every accessor inside its buffer view, every buffer view inside the
 * buffer, indices within the vertex count, POSITION min/max present, references in range.
 * It is a test helper and a guard for the build, not a full Khronos validator.
 */

export interface GltfDocument {
  asset: { version: string; generator?: string };
  scene?: number;
  scenes?: { name?: string; nodes?: number[]; extras?: Record<string, unknown> }[];
  nodes?: { name?: string; mesh?: number; children?: number[]; extras?: Record<string, unknown> }[];
  meshes?: {
    name?: string;
    primitives: { attributes: Record<string, number>; indices?: number; material?: number; mode?: number }[];
  }[];
  materials?: { name?: string; alphaMode?: string }[];
  accessors?: {
    bufferView?: number;
    byteOffset?: number;
    componentType: number;
    count: number;
    type: string;
    min?: number[];
    max?: number[];
  }[];
  bufferViews?: {
    buffer: number;
    byteOffset?: number;
    byteLength: number;
    byteStride?: number;
    target?: number;
  }[];
  buffers?: { byteLength: number; uri?: string }[];
  animations?: {
    name?: string;
    samplers: { input: number; output: number; interpolation?: string }[];
    channels: { sampler: number; target: { node?: number; path: string } }[];
  }[];
}

export interface GlbContents {
  version: number;
  json: GltfDocument;
  bin: Uint8Array | null;
}

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Record<string, number> = {
  SCALAR: 1,
  VEC2: 2,
  VEC3: 3,
  VEC4: 4,
  MAT2: 4,
  MAT3: 9,
  MAT4: 16,
};

export function readGlb(bytes: Uint8Array): GlbContents {
  if (bytes.byteLength < 20) throw new Error('GLB too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== 0x46546c67) throw new Error("Bad magic (expected 'glTF')");
  const version = view.getUint32(4, true);
  const length = view.getUint32(8, true);
  if (length !== bytes.byteLength)
    throw new Error(`Header length ${length} != file length ${bytes.byteLength}`);
  const jsonLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== 0x4e4f534a) throw new Error('First chunk is not JSON');
  if (jsonLength % 4 !== 0) throw new Error('JSON chunk not 4-byte aligned');
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength))) as GltfDocument;
  let bin: Uint8Array | null = null;
  const binStart = 20 + jsonLength;
  if (binStart < length) {
    const binLength = view.getUint32(binStart, true);
    if (view.getUint32(binStart + 4, true) !== 0x004e4942) throw new Error('Second chunk is not BIN');
    if (binStart + 8 + binLength > length) throw new Error('BIN chunk exceeds file');
    bin = bytes.subarray(binStart + 8, binStart + 8 + binLength);
  }
  return { version, json, bin };
}

/** Returns a list of problems (empty when the file is structurally valid). */
export function validateGlb(bytes: Uint8Array): string[] {
  const problems: string[] = [];
  let glb: GlbContents;
  try {
    glb = readGlb(bytes);
  } catch (e) {
    return [(e as Error).message];
  }
  const { json, bin } = glb;
  if (glb.version !== 2) problems.push(`GLB version ${glb.version}`);
  if (json.asset?.version !== '2.0') problems.push('asset.version is not 2.0');
  const buffers = json.buffers ?? [];
  const views = json.bufferViews ?? [];
  const accessors = json.accessors ?? [];
  const nodes = json.nodes ?? [];
  const meshes = json.meshes ?? [];
  const materials = json.materials ?? [];
  if (buffers.length && (!bin || bin.byteLength < buffers[0]!.byteLength))
    problems.push('buffer 0 larger than BIN');
  views.forEach((v, i) => {
    const buf = buffers[v.buffer];
    if (!buf) return problems.push(`bufferView ${i}: bad buffer`);
    if ((v.byteOffset ?? 0) + v.byteLength > buf.byteLength) problems.push(`bufferView ${i} exceeds buffer`);
  });
  accessors.forEach((a, i) => {
    const v = a.bufferView !== undefined ? views[a.bufferView] : undefined;
    if (!v) return problems.push(`accessor ${i}: bad bufferView`);
    const size = (COMPONENT_BYTES[a.componentType] ?? 0) * (TYPE_COMPONENTS[a.type] ?? 0);
    if (!size) return problems.push(`accessor ${i}: bad type`);
    const offset = a.byteOffset ?? 0;
    if (offset % (COMPONENT_BYTES[a.componentType] ?? 1) !== 0) problems.push(`accessor ${i}: misaligned`);
    const stride = v.byteStride ?? size;
    if (a.count > 0 && offset + stride * (a.count - 1) + size > v.byteLength)
      problems.push(`accessor ${i} exceeds view`);
  });
  const readIndices = (accessorIndex: number): ArrayLike<number> | null => {
    const a = accessors[accessorIndex];
    const v = a?.bufferView !== undefined ? views[a.bufferView] : undefined;
    if (!a || !v || !bin) return null;
    const start = bin.byteOffset + (v.byteOffset ?? 0) + (a.byteOffset ?? 0);
    if (a.componentType === 5123) return new Uint16Array(bin.buffer.slice(start, start + a.count * 2));
    if (a.componentType === 5125) return new Uint32Array(bin.buffer.slice(start, start + a.count * 4));
    if (a.componentType === 5121) return new Uint8Array(bin.buffer.slice(start, start + a.count));
    return null;
  };
  meshes.forEach((m, mi) => {
    m.primitives.forEach((p, pi) => {
      const pos = accessors[p.attributes.POSITION ?? -1];
      if (!pos) return problems.push(`mesh ${mi}/${pi}: no POSITION`);
      if (!pos.min || !pos.max) problems.push(`mesh ${mi}/${pi}: POSITION without min/max`);
      for (const [attr, idx] of Object.entries(p.attributes)) {
        if (accessors[idx]?.count !== pos.count) problems.push(`mesh ${mi}/${pi}: ${attr} count mismatch`);
      }
      if (p.material !== undefined && !materials[p.material]) problems.push(`mesh ${mi}/${pi}: bad material`);
      if (p.indices !== undefined) {
        const ind = readIndices(p.indices);
        if (!ind) problems.push(`mesh ${mi}/${pi}: unreadable indices`);
        else {
          if (ind.length % 3 !== 0) problems.push(`mesh ${mi}/${pi}: index count not a multiple of 3`);
          for (let k = 0; k < ind.length; k++) {
            if (ind[k]! >= pos.count) {
              problems.push(`mesh ${mi}/${pi}: index out of range`);
              break;
            }
          }
        }
      }
    });
  });
  nodes.forEach((n, i) => {
    if (n.mesh !== undefined && !meshes[n.mesh]) problems.push(`node ${i}: bad mesh`);
    for (const c of n.children ?? []) if (!nodes[c]) problems.push(`node ${i}: bad child ${c}`);
  });
  for (const s of json.scenes ?? [])
    for (const n of s.nodes ?? []) if (!nodes[n]) problems.push(`scene: bad node ${n}`);
  for (const anim of json.animations ?? []) {
    for (const s of anim.samplers) {
      const input = accessors[s.input];
      if (!input?.min || !input.max) problems.push(`animation ${anim.name}: input without min/max`);
      if (!accessors[s.output]) problems.push(`animation ${anim.name}: bad output`);
    }
    for (const c of anim.channels) {
      if (!anim.samplers[c.sampler]) problems.push(`animation ${anim.name}: bad sampler`);
      if (c.target.node === undefined || !nodes[c.target.node])
        problems.push(`animation ${anim.name}: bad target`);
    }
  }
  return problems;
}

export function triangleCountOf(json: GltfDocument): number {
  let n = 0;
  for (const m of json.meshes ?? [])
    for (const p of m.primitives) n += (json.accessors?.[p.indices ?? -1]?.count ?? 0) / 3;
  return n;
}
