import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { assertStorageKey, type Storage, type StoredObject } from './storage.ts';
import { isStorageFault, StorageUnavailableError } from './storage-unavailable.error.ts';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
/** The folder's own failures (permissions, full, read-only, I/O) become StorageUnavailableError. */
const named = (error: unknown): unknown =>
  isStorageFault(error) ? new StorageUnavailableError(error) : error;

/**
 * Files under one folder. Keys are checked (no '..', no absolute paths) and the resolved path must stay
 * inside the folder, so a key can never reach another file. Writes go to a temporary file first and are
 * renamed into place, so a reader never sees half a file, and a failed write leaves the old file as it
 * was. The folder's own failures (EACCES, ENOSPC, EROFS, ...) throw StorageUnavailableError.
 */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The absolute path of a key, refusing anything that would leave the root. */
  pathOf(key: string): string {
    assertStorageKey(key);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error('Storage key escapes the storage folder');
    return full;
  }

  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<void> {
    const full = this.pathOf(key);
    const temp = `${full}.${randomBytes(6).toString('hex')}.part`;
    try {
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(temp, bytes);
      await rename(temp, full);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw named(error);
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const full = this.pathOf(key);
    try {
      const info = await stat(full);
      if (!info.isFile()) return null;
      return { body: createReadStream(full), size: info.size };
    } catch (error) {
      if (isMissing(error)) return null;
      throw named(error);
    }
  }

  async getBytes(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
      throw named(error);
    }
  }

  async delete(key: string): Promise<void> {
    const full = this.pathOf(key);
    await rm(full, { force: true }).catch((error: unknown) => {
      throw named(error);
    });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw named(error);
    }
  }
}
