import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from './local-storage.ts';
import { streamToBuffer } from './storage.ts';

let dir: string;
let storage: LocalStorage;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'helix-local-'));
  storage = new LocalStorage(path.join(dir, 'root'));
  await writeFile(path.join(dir, 'secret.txt'), 'secret');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('LocalStorage', () => {
  it('puts, gets, checks and deletes', async () => {
    await storage.put('models/a.glb', Buffer.from('abc'), 'model/gltf-binary');
    expect(await storage.exists('models/a.glb')).toBe(true);
    expect((await storage.getBytes('models/a.glb'))?.toString()).toBe('abc');
    const object = await storage.get('models/a.glb');
    expect(object?.size).toBe(3);
    expect((await streamToBuffer(object!.body)).toString()).toBe('abc');
    await storage.delete('models/a.glb');
    await storage.delete('models/a.glb');
    expect(await storage.exists('models/a.glb')).toBe(false);
    expect(await storage.get('models/a.glb')).toBeNull();
    expect(await storage.getBytes('models')).toBeNull();
    expect((await readdir(path.join(dir, 'root', 'models'))).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('refuses keys that could leave the folder', async () => {
    for (const key of [
      '../secret.txt',
      'a/../../secret.txt',
      '/etc/passwd',
      'a//b',
      '',
      '.',
      '..',
      'a\\..\\b',
      '%2e%2e/x',
      'a/./b',
      'x'.repeat(400),
      'a\u0000b',
    ]) {
      await expect(storage.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow();
      await expect(storage.getBytes(key), key).rejects.toThrow();
    }
  });
});
