/**
 * Writes a demo model as a glTF 2.0 binary (.glb) with glTF Transform: one node per part (with its
 * extras), one mesh with POSITION/NORMAL and indices per drawn part, PBR materials shared by name,
 * and LINEAR TRS animations. The output is deterministic: the same model gives the same bytes.
 */
import { Document, NodeIO, type Material, type Node, type TypedArray } from '@gltf-transform/core';
import type { MeshData } from './geometry.ts';
import { hexToRgb, srgbToLinear, type MaterialDef, type ModelDef, type PartDef } from './model-def.ts';

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
const linear = (hex: MaterialDef['color']) =>
  hexToRgb(hex).map((c) => round6(srgbToLinear(c))) as [number, number, number];

export function modelToDocument(model: ModelDef): Document {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'Helix demo-content';
  doc.getRoot().getAsset().copyright = 'Helix demo content (CC0 sources)';
  const buffer = doc.createBuffer();
  const accessor = (type: 'SCALAR' | 'VEC3' | 'VEC4', array: TypedArray) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const materials = new Map<string, Material>();
  const nodes = new Map<string, Node>();

  const material = (m: MaterialDef): Material => {
    const existing = materials.get(m.name);
    if (existing) return existing;
    const opacity = m.opacity ?? 1;
    const created = doc
      .createMaterial(m.name)
      .setBaseColorFactor([...linear(m.color), round6(opacity)])
      .setMetallicFactor(m.metallic ?? 0)
      .setRoughnessFactor(m.roughness ?? 0.6)
      .setAlphaMode(opacity < 1 ? 'BLEND' : 'OPAQUE')
      .setDoubleSided(m.doubleSided ?? false);
    if (m.emissive) created.setEmissiveFactor(linear(m.emissive));
    materials.set(m.name, created);
    return created;
  };

  const mesh = (name: string, data: MeshData, m: MaterialDef) => {
    const wide = data.positions.length / 3 > 65535;
    const primitive = doc
      .createPrimitive()
      .setAttribute('POSITION', accessor('VEC3', new Float32Array(data.positions)))
      .setAttribute('NORMAL', accessor('VEC3', new Float32Array(data.normals)))
      .setIndices(accessor('SCALAR', wide ? new Uint32Array(data.indices) : new Uint16Array(data.indices)))
      .setMaterial(material(m));
    return doc.createMesh(name).addPrimitive(primitive);
  };

  const addPart = (part: PartDef): Node => {
    if (nodes.has(part.name)) throw new Error(`Duplicate node name: ${part.name}`);
    const node = doc.createNode(part.name);
    nodes.set(part.name, node);
    if (part.mesh && part.mesh.indices.length > 0) {
      if (!part.material) throw new Error(`Part ${part.name} has a mesh but no material`);
      node.setMesh(mesh(part.name, part.mesh, part.material));
    }
    const extras: Record<string, unknown> = { ...(part.extras ?? {}) };
    if (part.description) extras.description = part.description;
    node.setExtras(extras);
    for (const child of part.children ?? []) node.addChild(addPart(child));
    return node;
  };

  const scene = doc
    .createScene(model.name)
    .addChild(addPart(model.root))
    .setExtras({ title: model.name, urlModelName: model.urlModelName, description: model.description });
  doc.getRoot().setDefaultScene(scene);

  for (const anim of model.animations ?? []) {
    const animation = doc.createAnimation(anim.name);
    for (const ch of anim.channels) {
      const node = nodes.get(ch.node);
      if (!node) throw new Error(`Animation ${anim.name} targets unknown node ${ch.node}`);
      const width = ch.path === 'rotation' ? 4 : 3;
      if (ch.values.length !== ch.times.length * width)
        throw new Error(`Animation ${anim.name}: bad value count`);
      const sampler = doc
        .createAnimationSampler()
        .setInput(accessor('SCALAR', new Float32Array(ch.times)))
        .setOutput(accessor(width === 4 ? 'VEC4' : 'VEC3', new Float32Array(ch.values)))
        .setInterpolation('LINEAR');
      animation
        .addSampler(sampler)
        .addChannel(
          doc.createAnimationChannel().setTargetNode(node).setTargetPath(ch.path).setSampler(sampler),
        );
    }
  }
  return doc;
}

export async function modelToGlb(model: ModelDef): Promise<Uint8Array> {
  return new NodeIO().writeBinary(modelToDocument(model));
}
