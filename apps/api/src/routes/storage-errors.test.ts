import { readdir } from 'node:fs/promises';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import {
  bearer,
  createModelHarness,
  customer,
  png,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';
import { makeUnwritable, mountSmallDisk, type SmallDisk } from '../../test/storage-faults.ts';

let h: ModelHarness;
let owner: Caller;
let disk: SmallDisk | null = null;

beforeAll(async () => {
  h = await createModelHarness();
  owner = await customer(h);
});
afterAll(async () => {
  disk?.unmount();
  await h?.close();
});

const edit = async (picture: Buffer) =>
  request(h.app)
    .post(`${owner.base}/user/edit`)
    .set(bearer(owner.token))
    .field('name', 'Olivia')
    .attach('profilePicture', picture, 'me.png');

const storedPicture = async () =>
  (await h.db.user.findUniqueOrThrow({ where: { id: owner.user.id } })).profilePicture;

/** A picture stored the normal way: the "old file" every case below must keep. */
async function oldPicture(): Promise<string> {
  const res = await edit(await png(80, 80));
  expect(res.status).toBe(200);
  const key = (await storedPicture())!;
  expect(await h.storage.exists(key)).toBe(true);
  return key;
}

/** 503 STORAGE_UNAVAILABLE with Retry-After, the old picture kept, nothing half-written left behind. */
async function expectStorageRefused(oldKey: string) {
  const before = await readdir(path.join(h.storage.root, 'images'));
  const res = await edit(await png(64, 64));
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('30');
  expect(res.body).toMatchObject({
    code: ERROR_CODES.storageUnavailable,
    message: MSG.storageUnavailable,
    errors: { profilePicture: MSG.storageUnavailable },
  });
  expect(await storedPicture()).toBe(oldKey);
  expect(await h.storage.exists(oldKey)).toBe(true);
  const images = await readdir(path.join(h.storage.root, 'images'));
  expect(images.filter((name) => name.endsWith('.part'))).toEqual([]);
  expect(images).toEqual(before);
  expect(images).toContain(path.basename(oldKey));
}

describe('storage errors answer 503 STORAGE_UNAVAILABLE and keep the old file', () => {
  it('when the whole storage folder refuses new files (the API cannot store the upload)', async () => {
    const oldKey = await oldPicture();
    const root = h.storage.root;
    const undo = await makeUnwritable([root, path.join(root, 'tmp'), path.join(root, 'images')]);
    try {
      await expectStorageRefused(oldKey);
    } finally {
      await undo();
    }
    // Writable again: uploads work without a restart.
    expect((await edit(await png(64, 64))).status).toBe(200);
  });

  it('when only the picture folder refuses new files (the worker cannot store the result)', async () => {
    const oldKey = await oldPicture();
    const undo = await makeUnwritable([path.join(h.storage.root, 'images')]);
    try {
      await expectStorageRefused(oldKey);
    } finally {
      await undo();
    }
    // The worker removed the upload it could not check.
    expect(await readdir(path.join(h.storage.root, 'tmp'))).toEqual([]);
  });

  it('when the disk is full (ENOSPC) and when it is read-only (EROFS)', async (context) => {
    disk = await mountSmallDisk(h.storage.root);
    if (!disk) return context.skip('this process may not mount a tmpfs');
    const oldKey = await oldPicture();
    await disk.fill();
    await expectStorageRefused(oldKey);
    disk.remount('ro');
    await expectStorageRefused(oldKey);
    disk.remount('rw');
    expect((await edit(await png(64, 64))).status).toBe(200);
  });
});
