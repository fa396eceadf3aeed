/**
 * Builds the demo biology models as .glb files plus a WebP thumbnail each.
 *
 *   npx tsx packages/demo-content/src/build-demo-models.ts <outDir> [path/to/1ubq.pdb]
 *
 * The PDB path can also come from HELIX_PDB_PATH; by default it is the copy committed in
 * packages/demo-content/data (see its README for the attribution): nothing outside the repository. Output is deterministic: the same input gives byte-identical files.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { modelToGlb } from './glb-writer.ts';
import { validateGlb } from './glb-inspect.ts';
import type { ModelDef } from './model-def.ts';
import { buildAnimalCell } from './models/animal-cell.ts';
import { buildDnaHelix } from './models/dna-helix.ts';
import { buildNeuron } from './models/neuron.ts';
import { buildUbiquitin } from './models/ubiquitin.ts';
import { parsePdb } from './pdb.ts';
import { renderThumbnailWebp } from './thumbnail.ts';

export interface DemoModel {
  name: string;
  urlModelName: string;
  description: string;
  /** File name of the .glb inside outDir. */
  file: string;
  /** File name of the WebP thumbnail inside outDir. */
  thumbnail: string;
  isPublic: true;
}

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const defaultPdbPath = path.resolve(repoRoot, 'packages', 'demo-content', 'data', '1ubq.pdb');

export interface BuildOptions {
  /** Path to 1ubq.pdb (default: HELIX_PDB_PATH or the committed packages/demo-content/data/1ubq.pdb). */
  pdbPath?: string;
  /** Skip the thumbnails (faster, for tests that only need the .glb files). */
  thumbnails?: boolean;
}

/** The model definitions, in catalogue order. */
export async function demoModelDefs(options: BuildOptions = {}): Promise<ModelDef[]> {
  const pdbPath = options.pdbPath ?? process.env.HELIX_PDB_PATH ?? defaultPdbPath;
  const pdb = parsePdb(await readFile(pdbPath, 'utf8'));
  return [buildAnimalCell(), buildDnaHelix(), buildUbiquitin(pdb), buildNeuron()];
}

export async function buildDemoModels(outDir: string, options: BuildOptions = {}): Promise<DemoModel[]> {
  await mkdir(outDir, { recursive: true });
  const defs = await demoModelDefs(options);
  const models = await Promise.all(
    defs.map(async (def): Promise<DemoModel> => {
      const file = `${def.urlModelName}.glb`;
      const thumbnail = `${def.urlModelName}.webp`;
      const glb = await modelToGlb(def);
      const problems = await validateGlb(glb);
      if (problems.length) throw new Error(`${file} is not valid glTF: ${problems.join('; ')}`);
      await writeFile(path.join(outDir, file), glb);
      if (options.thumbnails !== false)
        await writeFile(path.join(outDir, thumbnail), await renderThumbnailWebp(def));
      return {
        name: def.name,
        urlModelName: def.urlModelName,
        description: def.description,
        file,
        thumbnail,
        isPublic: true,
      };
    }),
  );
  await writeFile(path.join(outDir, 'manifest.json'), JSON.stringify(models, null, 2) + '\n');
  return models;
}

const invokedDirectly =
  process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error('Usage: tsx packages/demo-content/src/build-demo-models.ts <outDir> [1ubq.pdb]');
    process.exit(2);
  }
  const started = Date.now();
  buildDemoModels(path.resolve(outDir), { pdbPath: process.argv[3] })
    .then((models) => {
      for (const m of models) console.log(`${m.file}  ${m.thumbnail}  ${m.name}`);
      console.log(
        `Built ${models.length} demo models in ${Date.now() - started} ms -> ${path.resolve(outDir)}`,
      );
    })
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
}
