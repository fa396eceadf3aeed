import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { streamToBuffer, type Storage } from './storage.ts';

/** `size` bytes that differ at every offset's position mod 251, so a wrong range shows. */
export const patterned = (size: number, seed = 0): Buffer => {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i + seed) % 251;
  return bytes;
};

/** A short fingerprint of bytes: expect(...).toEqual on megabytes of Buffer takes seconds. */
export const digest = (bytes: Buffer | null): string | null =>
  bytes && `${bytes.length}:${createHash('sha256').update(bytes).digest('hex')}`;

/** A stream of `bytes` in `chunk`-sized pieces, `delayMs` apart; fails before the end when `failAt` is set. */
export function slowStream(bytes: Buffer, chunk: number, delayMs: number, failAt?: number): Readable {
  return Readable.from(
    (async function* () {
      for (let at = 0; at < bytes.length; at += chunk) {
        if (failAt !== undefined && at >= failAt) throw new Error('the client went away');
        await sleep(delayMs);
        yield bytes.subarray(at, at + chunk);
      }
    })(),
  );
}

/**
 * What every Storage adapter must do, run against each one (storage-contract.test.ts): the local
 * folder and a real S3-compatible server. `storage()` answers the adapter under test; `bigStream` is
 * the size of a streamed upload that is written in several parts (multipart on S3).
 */
export function storageContract(storage: () => Storage, bigStream: number): void {
  it('puts bytes and gets them back, whole and as a stream, with size and a validator', async () => {
    const bytes = patterned(5000);
    await storage().put('models/contract-a.glb', bytes, 'model/gltf-binary');
    expect(digest(await storage().getBytes('models/contract-a.glb'))).toBe(digest(bytes));
    const object = await storage().get('models/contract-a.glb');
    expect(object?.size).toBe(5000);
    expect(digest(await streamToBuffer(object!.body))).toBe(digest(bytes));
    const info = await storage().stat('models/contract-a.glb');
    expect(info).toMatchObject({ size: 5000, etag: expect.stringMatching(/^"[^"]+"$/) });
    expect(info!.lastModified).toBeInstanceOf(Date);
    expect(await storage().exists('models/contract-a.glb')).toBe(true);
  });

  it('gets byte ranges: the start, the middle, the last byte', async () => {
    const bytes = patterned(10_000, 7);
    await storage().put('models/contract-range.glb', bytes, 'model/gltf-binary');
    for (const range of [
      { start: 0, end: 0 },
      { start: 0, end: 1023 },
      { start: 4097, end: 6000 },
      { start: 9999, end: 9999 },
    ]) {
      const object = await storage().get('models/contract-range.glb', range);
      expect(object?.size, JSON.stringify(range)).toBe(range.end - range.start + 1);
      expect(digest(await streamToBuffer(object!.body))).toBe(
        digest(bytes.subarray(range.start, range.end + 1)),
      );
    }
  });

  it('answers null (not an error) for a missing key, and deleting one twice is fine', async () => {
    expect(await storage().get('models/never-there.glb')).toBeNull();
    expect(await storage().get('models/never-there.glb', { start: 0, end: 9 })).toBeNull();
    expect(await storage().getBytes('models/never-there.glb')).toBeNull();
    expect(await storage().stat('models/never-there.glb')).toBeNull();
    expect(await storage().exists('models/never-there.glb')).toBe(false);
    expect(await storage().getBytes('models')).toBeNull();
    await storage().put('models/contract-gone.glb', Buffer.from('x'), 'model/gltf-binary');
    await storage().delete('models/contract-gone.glb');
    await storage().delete('models/contract-gone.glb');
    expect(await storage().get('models/contract-gone.glb')).toBeNull();
  });

  it('refuses keys and prefixes that are not safe relative paths', async () => {
    for (const key of ['../x', '/etc/passwd', 'a//b', '', '.hidden', 'a/../b']) {
      await expect(storage().put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow(
        /Invalid storage key/,
      );
      await expect(storage().get(key), key).rejects.toThrow(/Invalid storage key/);
    }
    await expect(storage().list('models')).rejects.toThrow(/Invalid storage prefix/);
    await expect(storage().list('../')).rejects.toThrow(/Invalid storage key/);
  });

  it('lists keys under a prefix, sorted, nested ones too', async () => {
    for (const key of ['list/b.png', 'list/a.png', 'list/deep/c.png', 'lister/d.png'])
      await storage().put(key, Buffer.from(key), 'image/png');
    expect(await storage().list('list/')).toEqual(['list/a.png', 'list/b.png', 'list/deep/c.png']);
    expect(await storage().list('list/deep/')).toEqual(['list/deep/c.png']);
    expect(await storage().list('nothing-here/')).toEqual([]);
    expect(await storage().list('')).toEqual(expect.arrayContaining(['list/a.png', 'lister/d.png']));
  });

  it('overwrites: the new bytes and a new validator', async () => {
    await storage().put('images/contract-over.png', patterned(300, 1), 'image/png');
    const before = await storage().stat('images/contract-over.png');
    await sleep(1100); // S3 dates have whole seconds; the ETag must change with the bytes anyway
    await storage().put('images/contract-over.png', patterned(200, 2), 'image/png');
    expect(await storage().getBytes('images/contract-over.png')).toEqual(patterned(200, 2));
    const after = await storage().stat('images/contract-over.png');
    expect(after?.size).toBe(200);
    expect(after?.etag).not.toBe(before?.etag);
  });

  it('streams an upload in and never shows it before it is whole (new key and overwrite)', async () => {
    const key = 'models/contract-slow.glb';
    const old = patterned(1000, 3);
    const bytes = patterned(bigStream, 5);
    for (const previous of [null, old]) {
      await storage().delete(key);
      if (previous) await storage().put(key, previous, 'model/gltf-binary');
      let done = false;
      const seen = new Set<string>();
      const writing = storage()
        .put(key, slowStream(bytes, Math.ceil(bigStream / 16), 25), 'model/gltf-binary')
        .finally(() => (done = true));
      while (!done) {
        const now = await storage().getBytes(key);
        seen.add(
          now === null
            ? 'absent'
            : now.equals(old)
              ? 'old'
              : now.equals(bytes)
                ? 'new'
                : `partial ${now.length}`,
        );
        expect(await storage().list('models/')).not.toContain(expect.stringMatching(/part/));
        await sleep(10);
      }
      await writing;
      expect([...seen].filter((s) => s.startsWith('partial'))).toEqual([]);
      expect(seen.has(previous ? 'old' : 'absent')).toBe(true);
      expect(digest(await storage().getBytes(key))).toBe(digest(bytes));
    }
  });

  it('keeps the old object when a streamed upload fails half-way, and leaves nothing behind', async () => {
    const key = 'models/contract-failed.glb';
    await storage().put(key, Buffer.from('old'), 'model/gltf-binary');
    const keys = await storage().list('');
    await expect(
      storage().put(
        key,
        slowStream(patterned(bigStream), Math.ceil(bigStream / 8), 5, Math.floor(bigStream / 2)),
        'model/gltf-binary',
      ),
    ).rejects.toThrow();
    expect((await storage().getBytes(key))?.toString()).toBe('old');
    expect(await storage().list('')).toEqual(keys);
    await storage().delete(key);
    await expect(
      storage().put(
        'models/contract-never.glb',
        slowStream(patterned(1000), 100, 1, 500),
        'model/gltf-binary',
      ),
    ).rejects.toThrow();
    expect(await storage().exists('models/contract-never.glb')).toBe(false);
  });
}
