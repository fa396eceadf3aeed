import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3RVER_CREDENTIALS, startS3Server, type S3Service } from '@helix/stack/services/s3';
import { LocalStorage } from './local-storage.ts';
import { S3Storage } from './s3-storage.ts';
import { storageContract } from './storage-contract.ts';
import { StorageUnavailableError } from './storage-unavailable.error.ts';

const MIB = 1024 * 1024;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'helix-storage-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('LocalStorage (contract)', () => {
  let storage: LocalStorage;
  beforeAll(() => {
    storage = new LocalStorage(path.join(dir, 'local'));
  });
  storageContract(() => storage, MIB);
});

describe('S3Storage against a real S3-compatible server (contract)', () => {
  let server: S3Service;
  let storage: S3Storage;
  beforeAll(async () => {
    server = await startS3Server({ directory: path.join(dir, 's3'), bucket: 'contract' });
    storage = new S3Storage({
      endpoint: server.url,
      bucket: 'contract',
      partSize: MIB * 5,
      ...S3RVER_CREDENTIALS,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });
  // Over one part: the streamed upload is a multipart upload, completed only at the end.
  storageContract(() => storage, MIB * 6);
});

describe('S3Storage when the server stops', () => {
  it('answers StorageUnavailableError for every call, and works again when it is back', async () => {
    const server = await startS3Server({ directory: path.join(dir, 's3-stop'), bucket: 'stop' });
    const storage = new S3Storage({
      endpoint: server.url,
      bucket: 'stop',
      maxAttempts: 1,
      ...S3RVER_CREDENTIALS,
    });
    await storage.put('models/a.glb', Buffer.from('abc'), 'model/gltf-binary');
    await server.stop();
    for (const call of [
      () => storage.put('models/b.glb', Buffer.from('x'), 'model/gltf-binary'),
      () => storage.get('models/a.glb'),
      () => storage.stat('models/a.glb'),
      () => storage.getBytes('models/a.glb'),
      () => storage.list('models/'),
      () => storage.delete('models/a.glb'),
      () => storage.exists('models/a.glb'),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(StorageUnavailableError);
    }
    const port = Number(new URL(server.url).port);
    const again = await startS3Server({ directory: path.join(dir, 's3-stop'), bucket: 'stop', port });
    try {
      expect((await storage.getBytes('models/a.glb'))?.toString()).toBe('abc');
    } finally {
      await again.stop();
    }
  });

  it('a missing bucket is the store failing, not a missing object', async () => {
    const server = await startS3Server({ directory: path.join(dir, 's3-nobucket'), bucket: 'there' });
    try {
      const storage = new S3Storage({ endpoint: server.url, bucket: 'not-there', ...S3RVER_CREDENTIALS });
      await expect(storage.get('models/a.glb')).rejects.toBeInstanceOf(StorageUnavailableError);
    } finally {
      await server.stop();
    }
  });
});
