import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoModels, demoModelDefs, type DemoModel } from './build-demo-models.ts';
import { readGlb, triangleCountOf, validateGlb, type GltfJson } from './glb-inspect.ts';
import { modelToGlb } from './glb-writer.ts';

let outDir = '';
let models: DemoModel[] = [];
const docs = new Map<string, GltfJson>();

beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'helix-demo-'));
  models = await buildDemoModels(outDir);
  for (const m of models)
    docs.set(m.urlModelName, await readGlb(new Uint8Array(await readFile(path.join(outDir, m.file)))));
}, 600_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

const nodeNames = (doc: GltfJson) => (doc.nodes ?? []).map((n) => n.name ?? '');

describe('buildDemoModels', () => {
  it('returns the catalogue entries', () => {
    expect(models.map((m) => m.urlModelName)).toEqual([
      'animal-cell',
      'dna-double-helix',
      'ubiquitin-1ubq',
      'neuron',
    ]);
    for (const m of models) {
      expect(m).toMatchObject({
        file: `${m.urlModelName}.glb`,
        thumbnail: `${m.urlModelName}.webp`,
        isPublic: true,
      });
      expect(m.name.length).toBeGreaterThan(0);
    }
  });

  it('writes valid glTF 2.0 binaries with named nodes', async () => {
    for (const m of models) {
      const bytes = new Uint8Array(await readFile(path.join(outDir, m.file)));
      expect(Buffer.from(bytes.subarray(0, 4)).toString('latin1')).toBe('glTF');
      expect(new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true)).toBe(2);
      expect(await validateGlb(bytes)).toEqual([]);
      const doc = docs.get(m.urlModelName)!;
      expect(doc.asset.version).toBe('2.0');
      expect(nodeNames(doc).every((n) => n.length > 0)).toBe(true);
      expect(new Set(nodeNames(doc)).size).toBe(doc.nodes!.length);
      expect(doc.nodes!.length).toBeGreaterThanOrEqual(5);
      const tris = triangleCountOf(doc);
      expect(tris).toBeGreaterThan(1000);
      expect(tris).toBeLessThan(150_000);
    }
  });

  it('names the organelles of the animal cell with distinct materials', () => {
    const doc = docs.get('animal-cell')!;
    const names = nodeNames(doc);
    for (const organelle of [
      'Cell membrane',
      'Nucleus',
      'Nucleolus',
      'Mitochondria',
      'Rough endoplasmic reticulum',
      'Golgi apparatus',
      'Lysosomes',
    ]) {
      expect(names).toContain(organelle);
    }
    expect(names.filter((n) => n.startsWith('Mitochondrion ')).length).toBeGreaterThan(3);
    expect(new Set(doc.materials!.map((m) => m.name)).size).toBeGreaterThanOrEqual(10);
    expect(doc.materials!.find((m) => m.name === 'Cell membrane')?.alphaMode).toBe('BLEND');
  });

  it('gives the DNA helix named parts and a rotation animation', () => {
    const doc = docs.get('dna-double-helix')!;
    expect(nodeNames(doc)).toEqual(
      expect.arrayContaining(['Adenine', 'Thymine', 'Guanine', 'Cytosine', 'Phosphate groups']),
    );
    expect(doc.animations?.length).toBe(1);
    const channel = doc.animations![0]!.channels[0]!;
    expect(channel.target.path).toBe('rotation');
    expect(doc.nodes![channel.target.node!]!.name).toBe('DNA double helix');
    const input = doc.accessors![doc.animations![0]!.samplers[0]!.input]!;
    expect(input.max![0]).toBeGreaterThan(0);
  });

  it('builds ubiquitin as ball-and-stick coloured by element', () => {
    const doc = docs.get('ubiquitin-1ubq')!;
    expect(nodeNames(doc)).toEqual(
      expect.arrayContaining([
        'Carbon atoms',
        'Nitrogen atoms',
        'Oxygen atoms',
        'Sulfur atoms',
        'Covalent bonds',
      ]),
    );
    expect(nodeNames(doc).some((n) => /water|HOH/i.test(n))).toBe(false);
  });

  it('names the parts of the neuron', () => {
    expect(nodeNames(docs.get('neuron')!)).toEqual(
      expect.arrayContaining(['Soma', 'Nucleus', 'Dendrites', 'Axon', 'Myelin sheaths', 'Axon terminals']),
    );
  });

  it('writes 512x384 WebP thumbnails', async () => {
    for (const m of models) {
      const meta = await sharp(path.join(outDir, m.thumbnail)).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 512, height: 384 });
      const stats = await sharp(path.join(outDir, m.thumbnail)).stats();
      // Not a blank image: the channels vary.
      expect(stats.channels[0]!.stdev).toBeGreaterThan(5);
    }
  });

  it('is deterministic', async () => {
    const again = await demoModelDefs();
    for (const def of again) {
      const file = await readFile(path.join(outDir, `${def.urlModelName}.glb`));
      const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
      expect(hash(await modelToGlb(def))).toBe(hash(file));
    }
  });
});
