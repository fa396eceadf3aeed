import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { defaultPdbPath } from '@helix/demo-content/build-demo-models';
import { modelToGlb } from '@helix/demo-content/glb-writer';
import { buildUbiquitin } from '@helix/demo-content/models/ubiquitin';
import { parsePdb } from '@helix/demo-content/pdb';
import { Box3, Color, type Mesh, type MeshStandardMaterial, type Object3D } from 'three';
import { GLTFLoader, type GLTF } from 'three/addons/loaders/GLTFLoader.js';
import { beforeAll, describe, expect, it } from 'vitest';
import * as yauzl from 'yauzl';
import { findParts } from '../scene/viewer-3d.ts';
import { arCopy, DEFAULT_AR_SIZE_M } from './ar-placement.ts';
import { exportUsdz } from './usdz.ts';

/** Every stored file of a USDZ with where its data starts, in archive order. */
async function readUsdz(bytes: Uint8Array) {
  const zip = await yauzl.fromBufferPromise(Buffer.from(bytes), { lazyEntries: true });
  const files: { name: string; method: number; dataStart: number; text: string }[] = [];
  for await (const entry of zip.eachEntry()) {
    const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
    const content = await text(await zip.openReadStreamPromise(entry));
    files.push({
      name: entry.fileName,
      method: entry.compressionMethod,
      dataStart: fileDataStart,
      text: content,
    });
  }
  zip.close();
  return files;
}

const meshesOf = (root: Object3D): Mesh[] => {
  const meshes: Mesh[] = [];
  root.traverseVisible((o) => {
    if ((o as Mesh).isMesh) meshes.push(o as Mesh);
  });
  return meshes;
};

/** The USDZ made from the demo protein (PDB 1UBQ), exactly as the viewer makes it for Quick Look. */
describe('the USDZ of the ubiquitin model', () => {
  let gltf: GLTF;
  beforeAll(async () => {
    const glb = await modelToGlb(buildUbiquitin(parsePdb(await readFile(defaultPdbPath, 'utf8'))));
    gltf = await new GLTFLoader().parseAsync(glb.slice().buffer, '');
  });

  it('is a zip Quick Look accepts: stored, the model file first, every file 64-byte aligned', async () => {
    const { holder } = arCopy(gltf.scene, null);
    const files = await readUsdz(await exportUsdz(holder));
    expect(files.length).toBeGreaterThan(0);
    expect(files[0]!.name).toMatch(/\.usd[ac]$/);
    for (const f of files) {
      expect(f.method, `${f.name} compression`).toBe(0);
      expect(f.dataStart % 64, `${f.name} data offset ${f.dataStart}`).toBe(0);
    }
  });

  it('holds every mesh with its points and every material with its colour', async () => {
    const { holder } = arCopy(gltf.scene, null);
    const files = await readUsdz(await exportUsdz(holder));
    const usda = files[0]!.text;
    expect(usda).toMatch(/^#usda 1\.0/);
    const meshes = meshesOf(gltf.scene);
    expect(meshes.length).toBeGreaterThan(3); // carbon, nitrogen, oxygen, sulfur atoms and the bonds
    // Each mesh is a geometry file the model references, bound to a material.
    const geometries = files.filter((f) => /def Mesh "/.test(f.text));
    expect(geometries).toHaveLength(meshes.length);
    for (const g of geometries) expect(usda).toContain(`@./${g.name}@`);
    expect(usda.match(/rel material:binding = </g)).toHaveLength(meshes.length);
    // Each mesh's points: as many as its geometry's vertices.
    const pointCounts = geometries.map(
      (g) => /point3f\[\] points = \[([^\]]*)\]/.exec(g.text)![1]!.split('),').length,
    );
    expect(pointCounts.sort((a, b) => a - b)).toEqual(
      meshes.map((m) => m.geometry.getAttribute('position').count).sort((a, b) => a - b),
    );
    // Each material with its colour (CPK: carbon grey, nitrogen blue, oxygen red, sulfur yellow).
    const materials = new Set(meshes.map((m) => m.material as MeshStandardMaterial));
    expect(usda.match(/def Material "/g)).toHaveLength(materials.size);
    expect(usda.match(/def Shader "PreviewSurface"/g)).toHaveLength(materials.size);
    const colours = [...usda.matchAll(/color3f inputs:diffuseColor = \(([^)]*)\)/g)].map((m) =>
      m[1]!.split(',').map(Number),
    );
    for (const { color } of materials) {
      const found = colours.some((c) => c.every((v, i) => Math.abs(v - color.toArray()[i]!) < 1e-5));
      expect(found, `diffuseColor ${color.toArray().join(', ')}`).toBe(true);
    }
    // Anchored on a horizontal surface.
    expect(usda).toContain('preliminary:anchoring:type = "plane"');
    expect(usda).toContain('preliminary:planeAnchoring:alignment = "horizontal"');
  });

  it('keeps what the view shows: a hidden part and the highlight are not exported', async () => {
    const parts = findParts(gltf.scene);
    const hidden = parts.find((p) => meshesOf(p.object).length > 0)!;
    const highlighted = parts.find((p) => p !== hidden && meshesOf(p.object).length > 0)!;
    // The viewer's highlight: an emissive clone, the original kept in userData (Viewer3D.highlight).
    for (const mesh of meshesOf(highlighted.object)) {
      mesh.userData.__originalMaterial = mesh.material;
      const glow = (mesh.material as MeshStandardMaterial).clone();
      glow.emissive = new Color('#ffb020');
      mesh.material = glow;
    }
    hidden.object.visible = false;
    try {
      const files = await readUsdz(await exportUsdz(arCopy(gltf.scene, null).holder));
      const shown = meshesOf(gltf.scene);
      expect(shown.length).toBeGreaterThan(0);
      expect(files.filter((f) => /def Mesh "/.test(f.text))).toHaveLength(shown.length);
      // The demo's materials glow nowhere; the highlight's orange glow must not reach the USDZ.
      expect(files[0]!.text).not.toContain('inputs:emissiveColor');
    } finally {
      hidden.object.visible = true;
      for (const mesh of meshesOf(highlighted.object)) {
        mesh.material = mesh.userData.__originalMaterial as MeshStandardMaterial;
        delete mesh.userData.__originalMaterial;
      }
    }
  });

  it('stands on the surface at 30 cm, or at the real size its metadata gives', () => {
    const fitted = arCopy(gltf.scene, null);
    const box = new Box3().setFromObject(fitted.holder);
    const size = box.getSize(box.min.clone());
    expect(Math.max(size.x, size.y, size.z)).toBeCloseTo(DEFAULT_AR_SIZE_M, 5);
    expect(box.min.y).toBeCloseTo(0, 6);
    expect((box.min.x + box.max.x) / 2).toBeCloseTo(0, 6);
    expect(fitted.placement.realSize).toBe(false);

    // Scene units are nanometres here (ubiquitin.ts), so metersPerUnit 1e-9 is the molecule's true size.
    const real = arCopy(gltf.scene, 1e-9);
    expect(real.placement.realSize).toBe(true);
    expect(real.holder.scale.x).toBe(1e-9);
    const modelSize = new Box3().setFromObject(gltf.scene).getSize(box.min.clone());
    expect(real.placement.sizeM).toBeCloseTo(Math.max(modelSize.x, modelSize.y, modelSize.z) * 1e-9, 15);
  });
});
