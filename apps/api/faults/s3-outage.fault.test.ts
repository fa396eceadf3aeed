import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { signModelFile } from '@helix/server/models/signing';
import { S3Storage } from '@helix/server/storage/s3-storage';
import { patterned, slowStream } from '@helix/server/storage/storage-contract';
import { StorageUnavailableError } from '@helix/server/storage/storage-unavailable.error';
import { S3RVER_CREDENTIALS, startS3Server, type S3Service } from '@helix/stack/services/s3';
import {
  bearer,
  createModel,
  createModelHarnessWith,
  customer,
  png,
  type Caller,
  type ModelHarness,
} from '../test/models.ts';
import { printFigures } from './support/invite-faults.ts';

/**
 * The S3-compatible server (a real s3rver, the API's only store here) stopped mid-test, once while a
 * large streamed upload is half-way: uploads and downloads answer 503 STORAGE_UNAVAILABLE (the field
 * named on a form), the database keeps pointing at whole objects, the half-sent upload never appears,
 * and everything works again when the server is back on the same port.
 */
let dir: string;
let server: S3Service;
let port: number;
let storage: S3Storage;
let h: ModelHarness<S3Storage>;
let owner: Caller;
const MIB = 1024 * 1024;

const restart = async () => {
  server = await startS3Server({ directory: path.join(dir, 's3'), bucket: 'helix', port });
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'helix-s3-outage-'));
  server = await startS3Server({ directory: path.join(dir, 's3'), bucket: 'helix' });
  port = Number(new URL(server.url).port);
  storage = new S3Storage({
    endpoint: server.url,
    bucket: 'helix',
    partSize: 5 * MIB,
    ...S3RVER_CREDENTIALS,
  });
  h = await createModelHarnessWith(storage);
  owner = await customer(h);
});
afterAll(async () => {
  await h?.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const edit = async (picture: Buffer) =>
  request(h.app)
    .post(`${owner.base}/user/edit`)
    .set(bearer(owner.token))
    .field('name', 'Olivia')
    .attach('profilePicture', picture, 'me.png');
const storedPicture = async () =>
  (await h.db.user.findUniqueOrThrow({ where: { id: owner.user.id } })).profilePicture;

describe('an S3 outage', () => {
  it('answers 503 STORAGE_UNAVAILABLE, keeps the old objects, shows no half upload, and recovers', async () => {
    const figures: Record<string, string | number> = {};
    // Before: a picture (through the worker's image check) and a model file, both in S3.
    expect((await edit(await png(80, 80))).status).toBe(200);
    const oldPicture = (await storedPicture())!;
    const model = await createModel(h);
    const { exp, sig } = signModelFile(h.config.SIGNING_SECRET, model.id);
    const file = `/api/files/models/${model.id}?exp=${exp}&sig=${sig}`;
    expect((await request(h.app).get(file).set('Range', 'bytes=0-3')).status).toBe(206);
    const keysBefore = await storage.list('');

    // A 12 MiB upload streamed in parts; the server stops after its first part is sent.
    const big = 'models/outage-big.glb';
    let started = Date.now();
    const upload = storage.put(big, slowStream(patterned(12 * MIB), MIB, 40), 'model/gltf-binary');
    upload.catch(() => undefined);
    await sleep(400);
    await server.stop();
    await expect(upload).rejects.toBeInstanceOf(StorageUnavailableError);
    figures['half-sent upload failed after (ms)'] = Date.now() - started;

    started = Date.now();
    const refused = await edit(await png(64, 64));
    figures['upload answered 503 after (ms)'] = Date.now() - started;
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.body).toMatchObject({
      code: ERROR_CODES.storageUnavailable,
      errors: { profilePicture: MSG.storageUnavailable },
    });
    expect(await storedPicture()).toBe(oldPicture);

    started = Date.now();
    const download = await request(h.app).get(file).set('Range', 'bytes=0-3');
    figures['download answered 503 after (ms)'] = Date.now() - started;
    expect(download.status).toBe(503);
    expect(download.body).toMatchObject({ code: ERROR_CODES.storageUnavailable });

    // Back on the same port: nothing half-written is visible, the old objects are whole, work goes on.
    await restart();
    expect(await storage.exists(big)).toBe(false);
    expect(await storage.list('')).toEqual(keysBefore);
    expect(await storage.exists(oldPicture)).toBe(true);
    expect((await request(h.app).get(file).set('Range', 'bytes=0-3')).status).toBe(206);
    started = Date.now();
    expect((await edit(await png(72, 72))).status).toBe(200);
    figures['first upload after the outage (ms)'] = Date.now() - started;
    expect(await storedPicture()).not.toBe(oldPicture);
    expect(await storage.exists(oldPicture)).toBe(false); // replaced: the old one is removed
    printFigures('S3 outage (s3rver stopped mid-test)', figures);
  });
});
