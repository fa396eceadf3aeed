import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { S3Storage } from '@helix/server/storage/s3-storage';
import { resolveS3 } from './s3.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'helix-s3-service-'));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

describe('resolveS3 (npm start with STORAGE=s3)', () => {
  it('starts an embedded S3-compatible server whose S3_* variables work, keeping objects across restarts', async () => {
    vi.stubEnv('S3_ENDPOINT', '');
    vi.stubEnv('S3_BUCKET', '');
    const first = await resolveS3({ dataDir: dir });
    expect(first.kind).toBe('embedded');
    expect(first.directory).toBe(path.join(dir, 's3'));
    const env = first.env;
    const storage = () =>
      new S3Storage({
        endpoint: env.S3_ENDPOINT!,
        bucket: env.S3_BUCKET!,
        accessKeyId: env.S3_ACCESS_KEY_ID,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      });
    await storage().put('models/kept.glb', Buffer.from('kept'), 'model/gltf-binary');
    await first.stop();
    const second = await resolveS3({ dataDir: dir, port: Number(new URL(first.url).port) });
    try {
      expect((await storage().getBytes('models/kept.glb'))?.toString()).toBe('kept');
    } finally {
      await second.stop();
    }
  });

  it('uses S3_ENDPOINT and S3_BUCKET when they are set, starting nothing', async () => {
    vi.stubEnv('S3_ENDPOINT', 'https://s3.example.test');
    vi.stubEnv('S3_BUCKET', 'district');
    const found = await resolveS3({ dataDir: dir });
    expect(found).toMatchObject({ kind: 'external', url: 'https://s3.example.test', env: {} });
    expect(found.description).toMatch(/bucket district/);
  });
});
