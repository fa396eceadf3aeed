import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropDatabase } from '@helix/server/testing/test-db';
import type { Db } from '../db.ts';
import { createTestDb } from '../testing/test-db.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import { glbProblems } from './glb.ts';
import { seedDemoModels, type BuildDemoModels } from './seed-demo-models.ts';

let database: { name: string; url: string };
let db: Db;
let dir: string;
let storage: LocalStorage;

beforeAll(async () => {
  database = await createTestDatabase('helix_seed_models');
  db = createTestDb(database.url);
  dir = await mkdtemp(path.join(tmpdir(), 'helix-seed-'));
  storage = new LocalStorage(path.join(dir, 'storage'));
});
afterAll(async () => {
  await db.$disconnect();
  await dropDatabase(database.name);
  await rm(dir, { recursive: true, force: true });
});

/** A stand-in for packages/demo-content's builder with the same answer shape. */
const fakeBuild: BuildDemoModels = async (outDir) => {
  await writeFile(path.join(outDir, 'a.glb'), 'glb-a');
  await writeFile(path.join(outDir, 'a.webp'), 'webp-a');
  return [
    {
      name: 'Demo A',
      urlModelName: 'demo-a',
      description: 'A stand-in model.',
      file: 'a.glb',
      thumbnail: 'a.webp',
      isPublic: true,
    },
  ];
};

describe('seedDemoModels', () => {
  it('creates the models once, keeps portal edits, fills in missing files', async () => {
    const build = path.join(dir, 'fake');
    await mkdir(build, { recursive: true });
    expect(await seedDemoModels(db, storage, build, fakeBuild)).toEqual({
      created: ['demo-a'],
      existing: [],
    });
    const row = await db.model.findUniqueOrThrow({ where: { urlModelName: 'demo-a' } });
    expect(row).toMatchObject({
      name: 'Demo A',
      isPublic: true,
      fileKey: 'models/demo-demo-a.glb',
      thumbnail: 'images/thumbnail-demo-demo-a.webp',
    });
    expect((await storage.getBytes(row.fileKey!))?.toString()).toBe('glb-a');

    await db.model.update({ where: { id: row.id }, data: { name: 'Renamed by an admin', isPublic: false } });
    expect(await seedDemoModels(db, storage, build, fakeBuild)).toEqual({
      created: [],
      existing: ['demo-a'],
    });
    expect(await db.model.count({ where: { urlModelName: 'demo-a' } })).toBe(1);
    expect(await db.model.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      name: 'Renamed by an admin',
      isPublic: false,
    });
  });

  it('builds the real demo models (packages/demo-content) into valid glTF binaries', async () => {
    const result = await seedDemoModels(db, storage, path.join(dir, 'real'));
    expect(result.created.length).toBeGreaterThan(0);
    for (const urlModelName of result.created) {
      const model = await db.model.findUniqueOrThrow({ where: { urlModelName } });
      expect(glbProblems((await storage.getBytes(model.fileKey!))!)).toEqual([]);
      expect(await storage.exists(model.thumbnail!)).toBe(true);
    }
  }, 600_000);
});
