import { Readable } from 'node:stream';
import { NoSuchKey, NotFound, type S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { S3Storage } from './s3-storage.ts';
import { createStorage } from './create-storage.ts';
import { LocalStorage } from './local-storage.ts';
import { parseConfig } from '../config.ts';

/** An in-memory S3 behind the client's send(): enough to check the adapter's mapping. */
function fakeClient() {
  const objects = new Map<string, { body: Buffer; type?: string }>();
  const sent: string[] = [];
  const send = async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
    const { Bucket, Key, Body, ContentType } = command.input as {
      Bucket: string;
      Key: string;
      Body?: Buffer;
      ContentType?: string;
    };
    sent.push(`${command.constructor.name} ${Bucket}/${Key}`);
    const found = objects.get(Key);
    switch (command.constructor.name) {
      case 'PutObjectCommand':
        objects.set(Key, { body: Buffer.from(Body!), type: ContentType });
        return {};
      case 'GetObjectCommand':
        if (!found) throw new NoSuchKey({ message: 'no', $metadata: { httpStatusCode: 404 } });
        return { Body: Readable.from([found.body]), ContentLength: found.body.length };
      case 'HeadObjectCommand':
        if (!found) throw new NotFound({ message: 'no', $metadata: { httpStatusCode: 404 } });
        return {};
      case 'DeleteObjectCommand':
        objects.delete(Key);
        return {};
      default:
        throw new Error(command.constructor.name);
    }
  };
  return { client: { send } as unknown as S3Client, objects, sent };
}

describe('S3Storage', () => {
  it('maps put, get, exists and delete to the bucket', async () => {
    const fake = fakeClient();
    const storage = new S3Storage({ endpoint: 'http://s3.test', bucket: 'helix' }, fake.client);
    await storage.put('models/a.glb', Buffer.from('abc'), 'model/gltf-binary');
    expect(fake.objects.get('models/a.glb')?.type).toBe('model/gltf-binary');
    expect((await storage.getBytes('models/a.glb'))?.toString()).toBe('abc');
    expect(await storage.exists('models/a.glb')).toBe(true);
    await storage.delete('models/a.glb');
    expect(await storage.exists('models/a.glb')).toBe(false);
    expect(await storage.get('models/a.glb')).toBeNull();
    expect(fake.sent[0]).toBe('PutObjectCommand helix/models/a.glb');
    await expect(storage.put('../x', Buffer.from('x'), 'text/plain')).rejects.toThrow();
  });

  it('is chosen when S3_ENDPOINT and S3_BUCKET are set, path-style', async () => {
    const base = { DATABASE_URL: 'postgresql://x@localhost/x' };
    expect(createStorage(parseConfig(base))).toBeInstanceOf(LocalStorage);
    const s3 = createStorage(parseConfig({ ...base, S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'b' }));
    expect(s3).toBeInstanceOf(S3Storage);
    expect(await (s3 as S3Storage).client.config.forcePathStyle).toBe(true);
  });
});
