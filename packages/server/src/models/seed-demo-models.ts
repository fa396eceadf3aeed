import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../db.ts';
import type { Storage } from '../storage/storage.ts';
import type { buildDemoModels } from '@helix/demo-content/build-demo-models';
import { URL_MODEL_NAME_PATTERN } from '@helix/shared/schemas/model';

/**
 * packages/demo-content's builder, as seeding calls it. Loaded only when seeding: it brings sharp and
 * the models' geometry, which the API and the worker do not need otherwise.
 */
export type BuildDemoModels = (outDir: string) => ReturnType<typeof buildDemoModels>;

const loadBuilder = async (): Promise<BuildDemoModels> =>
  (await import('@helix/demo-content/build-demo-models')).buildDemoModels;

/**
 * Builds the demo models (packages/demo-content) into `buildDir` and puts them in the catalogue: the
 * .glb and the thumbnail in storage under fixed keys, a Model row per urlModelName. Idempotent: a model
 * that exists keeps what the portal changed (name, visibility, files replaced by an admin); only a
 * missing file or thumbnail is filled in. Answers the urlModelNames it created.
 */
export async function seedDemoModels(
  db: Db,
  storage: Storage,
  buildDir: string,
  build?: BuildDemoModels,
): Promise<{ created: string[]; existing: string[] }> {
  const models = await (build ?? (await loadBuilder()))(buildDir);
  const created: string[] = [];
  const existing: string[] = [];
  for (const demo of models) {
    if (!URL_MODEL_NAME_PATTERN.test(demo.urlModelName)) {
      throw new Error(`Demo model ${demo.name}: '${demo.urlModelName}' is not a valid urlModelName`);
    }
    const fileKey = `models/demo-${demo.urlModelName}.glb`;
    const thumbnailKey = `images/thumbnail-demo-${demo.urlModelName}.webp`;
    await storage.put(fileKey, await readFile(path.resolve(buildDir, demo.file)), 'model/gltf-binary');
    await storage.put(thumbnailKey, await readFile(path.resolve(buildDir, demo.thumbnail)), 'image/webp');

    const row = await db.model.findUnique({ where: { urlModelName: demo.urlModelName } });
    if (!row) {
      await db.model.create({
        data: {
          name: demo.name,
          urlModelName: demo.urlModelName,
          isPublic: demo.isPublic,
          fileKey,
          thumbnail: thumbnailKey,
        },
      });
      created.push(demo.urlModelName);
      continue;
    }
    existing.push(demo.urlModelName);
    if (!row.fileKey || (!row.thumbnail && row.version === 1)) {
      await db.model.update({
        where: { id: row.id },
        data: { fileKey: row.fileKey ?? fileKey, thumbnail: row.thumbnail ?? thumbnailKey },
      });
    }
  }
  return { created, existing };
}
