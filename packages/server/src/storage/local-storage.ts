import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertStorageKey,
  assertStoragePrefix,
  isStorageKey,
  type ByteRange,
  type ObjectInfo,
  type Storage,
  type StorageBody,
  type StoredObject,
} from './storage.ts';
import { isStorageFault, StorageUnavailableError } from './storage-unavailable.error.ts';

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};
/** The folder's own failures (permissions, full, read-only, I/O) become StorageUnavailableError. */
const named = (error: unknown): unknown =>
  isStorageFault(error) ? new StorageUnavailableError(error) : error;

/**
 * Files under one folder. Keys are checked (no '..', no absolute paths) and the resolved path must stay
 * inside the folder, so a key can never reach another file. Writes go to a temporary file in the same
 * folder first (`.<name>.<random>.part`: a leading dot is never a key, so it is never listed or served)
 * and are renamed into place, so a reader never sees half a file, and a failed write leaves the old
 * file as it was. The folder's own failures (EACCES, ENOSPC, EROFS, ...) throw StorageUnavailableError.
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

  async put(key: string, body: StorageBody, _contentType: string): Promise<void> {
    const full = this.pathOf(key);
    const temp = path.join(
      path.dirname(full),
      `.${path.basename(full)}.${randomBytes(6).toString('hex')}.part`,
    );
    try {
      await mkdir(path.dirname(full), { recursive: true });
      const source = body instanceof Readable ? body : Readable.from([body]);
      await pipeline(source, createWriteStream(temp, { flags: 'wx' }));
      await rename(temp, full);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw named(error);
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    const full = this.pathOf(key);
    try {
      const info = await stat(full);
      if (!info.isFile()) return null;
      if (!range) return { body: createReadStream(full), size: info.size };
      return { body: createReadStream(full, range), size: range.end - range.start + 1 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw named(error);
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const info = await stat(this.pathOf(key));
      if (!info.isFile()) return null;
      // Objects are replaced by rename, never changed in place: size and mtime name these bytes.
      const etag = `"${info.size.toString(16)}-${Math.round(info.mtimeMs * 1000).toString(16)}"`;
      return { size: info.size, etag, lastModified: info.mtime };
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

  async list(prefix: string): Promise<string[]> {
    assertStoragePrefix(prefix);
    const dir = prefix ? this.pathOf(prefix.slice(0, -1)) : this.root;
    try {
      const entries = await readdir(dir, { recursive: true, withFileTypes: true });
      return entries
        .filter((entry) => entry.isFile())
        .map(
          (entry) =>
            prefix + path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
        )
        .filter(isStorageKey)
        .sort();
    } catch (error) {
      if (isMissing(error)) return [];
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
    return (await this.stat(key)) !== null;
  }
}
