/**
 * Reads .glb files with glTF Transform (a test helper and a guard for the build): the parsed glTF
 * JSON, and a list of problems a loader would trip over (unparsable container, a primitive without
 * POSITION, attributes of different lengths, indices out of range).
 */
import { NodeIO, type GLTF } from '@gltf-transform/core';

export type GltfJson = GLTF.IGLTF;

/** The glTF JSON of a .glb (throws when the container cannot be read). */
export async function readGlb(bytes: Uint8Array): Promise<GltfJson> {
  return (await new NodeIO().binaryToJSON(bytes)).json;
}

/** Returns a list of problems (empty when the file is structurally valid). */
export async function validateGlb(bytes: Uint8Array): Promise<string[]> {
  const problems: string[] = [];
  let doc;
  try {
    doc = await new NodeIO().readBinary(bytes);
  } catch (e) {
    return [(e as Error).message];
  }
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      const where = `mesh ${mesh.getName()}`;
      const position = prim.getAttribute('POSITION');
      if (!position) {
        problems.push(`${where}: no POSITION`);
        continue;
      }
      for (const semantic of prim.listSemantics())
        if (prim.getAttribute(semantic)!.getCount() !== position.getCount())
          problems.push(`${where}: ${semantic} count mismatch`);
      const indices = prim.getIndices()?.getArray();
      if (!indices) continue;
      if (indices.length % 3 !== 0) problems.push(`${where}: index count not a multiple of 3`);
      let max = 0;
      for (let k = 0; k < indices.length; k++) max = Math.max(max, indices[k]!);
      if (max >= position.getCount()) problems.push(`${where}: index out of range`);
    }
  }
  return problems;
}

export function triangleCountOf(json: GltfJson): number {
  let n = 0;
  for (const m of json.meshes ?? [])
    for (const p of m.primitives) n += (json.accessors?.[p.indices ?? -1]?.count ?? 0) / 3;
  return n;
}
