import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signModelFile } from '@helix/server/models/signing';
import { LocalStorage } from '@helix/server/storage/local-storage';
import { S3Storage } from '@helix/server/storage/s3-storage';
import type { Storage } from '@helix/server/storage/storage';
import { digest, patterned } from '@helix/server/storage/storage-contract';
import { S3RVER_CREDENTIALS, startS3Server, type S3Service } from '@helix/stack/services/s3';
import { createModel, createModelHarnessWith, type ModelHarness } from '../../test/models.ts';

/** A model large enough that a viewer would fetch it in ranges (2.5 MB). */
const SIZE = 2.5 * 1024 * 1024;
const BYTES = patterned(SIZE, 11);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'helix-range-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const binary = (req: request.Test) =>
  req.buffer(true).parse((response, done) => {
    const chunks: Buffer[] = [];
    response.on('data', (c: Buffer) => chunks.push(c));
    response.on('end', () => done(null, Buffer.concat(chunks)));
  });

type Make = () => Promise<{ storage: Storage; stop(): Promise<void> }>;
const adapters: [string, Make][] = [
  [
    'the local folder',
    async () => ({ storage: new LocalStorage(path.join(dir, 'local')), stop: async () => {} }),
  ],
  [
    'S3 (a real S3-compatible server)',
    async () => {
      const server = await startS3Server({ directory: path.join(dir, 's3'), bucket: 'models' });
      const storage = new S3Storage({ endpoint: server.url, bucket: 'models', ...S3RVER_CREDENTIALS });
      return { storage, stop: () => server.stop() };
    },
  ],
];

describe.each(adapters)('GET /api/files/models/:id from %s', (_name, make) => {
  let h: ModelHarness<Storage>;
  let stop: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    const made = await make();
    stop = made.stop;
    h = await createModelHarnessWith(made.storage, { PUBLIC_URL: 'http://portal.test' });
    const model = await createModel(h);
    await h.storage.put(model.fileKey!, BYTES, 'model/gltf-binary');
    const { exp, sig } = signModelFile(h.config.SIGNING_SECRET, model.id);
    url = `/api/files/models/${model.id}?exp=${exp}&sig=${sig}`;
  });
  afterAll(async () => {
    await h?.close();
    await stop?.();
  });

  it('serves the whole file with Accept-Ranges, a strong ETag and Last-Modified', async () => {
    const res = await binary(request(h.app).get(url));
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'accept-ranges': 'bytes',
      'content-length': String(SIZE),
      'content-type': 'model/gltf-binary',
      etag: expect.stringMatching(/^"[^"]+"$/),
      'last-modified': expect.any(String),
    });
    expect(digest(res.body as Buffer)).toBe(digest(BYTES));
    const head = await request(h.app).head(url);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(SIZE));
    expect(head.headers.etag).toBe(res.headers.etag);
  });

  it('answers a Range with 206 and exactly those bytes (start-end, start-, suffix)', async () => {
    for (const [range, start, end] of [
      ['bytes=0-0', 0, 0],
      ['bytes=1000-1999', 1000, 1999],
      [`bytes=${SIZE - 100}-`, SIZE - 100, SIZE - 1],
      ['bytes=-500', SIZE - 500, SIZE - 1],
      [`bytes=2000000-${SIZE * 2}`, 2000000, SIZE - 1],
    ] as const) {
      const res = await binary(request(h.app).get(url).set('Range', range));
      expect(res.status, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${SIZE}`);
      expect(res.headers['content-length'], range).toBe(String(end - start + 1));
      expect(digest(res.body as Buffer), range).toBe(digest(BYTES.subarray(start, end + 1)));
    }
  });

  it('answers 416 past the end, and the whole file for several ranges or a malformed header', async () => {
    const past = await request(h.app).get(url).set('Range', `bytes=${SIZE}-`);
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${SIZE}`);
    for (const range of ['bytes=0-1,5-9', 'bytes=abc', 'lines=1-2']) {
      const res = await binary(request(h.app).get(url).set('Range', range));
      expect(res.status, range).toBe(200);
      expect((res.body as Buffer).length, range).toBe(SIZE);
    }
  });

  it('keeps the range only when If-Range names the stored file, and answers 304 to If-None-Match', async () => {
    const { etag, 'last-modified': lastModified } = (await request(h.app).head(url)).headers;
    const same = await binary(request(h.app).get(url).set('Range', 'bytes=10-19').set('If-Range', etag!));
    expect(same.status).toBe(206);
    const byDate = await binary(
      request(h.app).get(url).set('Range', 'bytes=10-19').set('If-Range', lastModified!),
    );
    expect(byDate.status).toBe(206);
    for (const other of ['"not-this-one"', `W/${etag}`, 'Mon, 01 Jan 2001 00:00:00 GMT']) {
      const changed = await binary(
        request(h.app).get(url).set('Range', 'bytes=10-19').set('If-Range', other),
      );
      expect(changed.status, other).toBe(200);
      expect((changed.body as Buffer).length, other).toBe(SIZE);
    }
    expect((await request(h.app).get(url).set('If-None-Match', etag!)).status).toBe(304);
  });

  it('lets the viewer origin send Range and read Content-Range', async () => {
    const preflight = await request(h.app)
      .options(url)
      .set('Origin', 'http://viewer.test')
      .set('Access-Control-Request-Headers', 'range');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Range/);
    const res = await request(h.app).get(url).set('Origin', 'http://viewer.test').set('Range', 'bytes=0-3');
    expect(res.headers['access-control-expose-headers']).toMatch(/Content-Range/);
  });
});

describe('GET /api/files/models/:id when the S3 server stops', () => {
  let server: S3Service;
  let h: ModelHarness<S3Storage>;
  afterAll(async () => {
    await h?.close();
    await server?.stop();
  });

  it('answers 503 STORAGE_UNAVAILABLE with Retry-After, and serves again once it is back', async () => {
    server = await startS3Server({ directory: path.join(dir, 's3-stop'), bucket: 'models' });
    const storage = new S3Storage({ endpoint: server.url, bucket: 'models', ...S3RVER_CREDENTIALS });
    h = await createModelHarnessWith(storage);
    const model = await createModel(h);
    const { exp, sig } = signModelFile(h.config.SIGNING_SECRET, model.id);
    const url = `/api/files/models/${model.id}?exp=${exp}&sig=${sig}`;
    expect((await request(h.app).get(url).set('Range', 'bytes=0-3')).status).toBe(206);

    const port = Number(new URL(server.url).port);
    await server.stop();
    const down = await request(h.app).get(url).set('Range', 'bytes=0-3');
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    expect(down.headers['retry-after']).toBe('30');

    server = await startS3Server({ directory: path.join(dir, 's3-stop'), bucket: 'models', port });
    expect((await request(h.app).get(url).set('Range', 'bytes=0-3')).status).toBe(206);
  });
});
