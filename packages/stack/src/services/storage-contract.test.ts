import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3RVER_CREDENTIALS, startS3Server, type S3Service } from './s3.ts';
import { copyStorage } from '@helix/server/storage/copy-storage';
import { LocalStorage } from '@helix/server/storage/local-storage';
import { S3Storage } from '@helix/server/storage/s3-storage';
import { storageContract } from '@helix/server/storage/storage-contract';
import { StorageUnavailableError } from '@helix/server/storage/storage-unavailable.error';

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

describe('copyStorage (the local folder into S3)', () => {
  it('copies every key with its bytes, skips what is there on a second run, and changes nothing in the source', async () => {
    const server = await startS3Server({ directory: path.join(dir, 's3-copy'), bucket: 'copy' });
    try {
      const from = new LocalStorage(path.join(dir, 'copy-from'));
      const to = new S3Storage({ endpoint: server.url, bucket: 'copy', ...S3RVER_CREDENTIALS });
      await from.put('models/a.glb', Buffer.from('model a'), 'model/gltf-binary');
      await from.put('images/thumbnail-b.webp', Buffer.from('thumb'), 'image/webp');
      await from.put('support/c.webp', Buffer.from('shot'), 'image/webp');
      expect(await copyStorage(from, to)).toEqual({
        copied: ['images/thumbnail-b.webp', 'models/a.glb', 'support/c.webp'],
        skipped: [],
      });
      expect((await to.getBytes('models/a.glb'))?.toString()).toBe('model a');
      await from.put('models/d.glb', Buffer.from('later'), 'model/gltf-binary');
      expect(await copyStorage(from, to)).toEqual({
        copied: ['models/d.glb'],
        skipped: ['images/thumbnail-b.webp', 'models/a.glb', 'support/c.webp'],
      });
      expect(await from.list('')).toHaveLength(4);
      expect(await to.list('')).toEqual(await from.list(''));
    } finally {
      await server.stop();
    }
  });
});
