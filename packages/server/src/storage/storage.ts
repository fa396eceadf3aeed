import type { Readable } from 'node:stream';

/**
 * Object storage for model files, images (thumbnails, logos, avatars) and support screenshots: a local
 * folder by default (STORAGE_DIR), any S3-compatible store when S3_ENDPOINT and S3_BUCKET are set
 * (docs/object-storage.md). Keys are relative paths of safe segments ('models/abc.glb',
 * 'images/thumbnail-xyz.webp'); anything else is refused.
 *
 * Writes are atomic: an object is visible under its key only when it is whole (local: a temporary file
 * renamed into place; S3: one PutObject, or a multipart upload completed only at the end). A reader
 * sees the old object or the new one, never part of one. A missing key is `null` (get, stat,
 * getBytes), never an exception; a store that fails is StorageUnavailableError (503).
 */
export interface ObjectInfo {
  /** Bytes of the whole object. */
  size: number;
  /** A strong validator of these bytes (quoted, as in an ETag header). */
  etag: string;
  lastModified: Date | null;
}

/** Bytes start..end of an object, both inclusive (as in `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  body: Readable;
  /** Bytes in `body` (the range's length for a range), when the store knows it. */
  size: number | null;
}

/** What put accepts: the bytes, or a stream of them (written whole or not at all). */
export type StorageBody = Uint8Array | Readable;

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Writes the object; visible under `key` only once every byte is stored (see above). */
  put(key: string, body: StorageBody, contentType: string): Promise<void>;
  /**
   * The object (or the given range of it, which must lie inside the object: check with stat) as a
   * stream, or null when there is none.
   */
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  /** Size, validator and date of the object, or null when there is none. */
  stat(key: string): Promise<ObjectInfo | null>;
  /** The whole object in memory, or null when there is none. */
  getBytes(key: string): Promise<Buffer | null>;
  /** Keys under a prefix ('' for all, 'models/' for one folder), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** Segments of letters, digits, dot, dash and underscore; no empty, '.' or '..' segment; 300 max. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export class StorageKeyError extends Error {}

export function assertStorageKey(key: string): void {
  const segments = key.split('/');
  if (
    key.length === 0 ||
    key.length > 300 ||
    segments.some((s) => !SEGMENT.test(s) || s === '.' || s === '..' || s.includes('..'))
  ) {
    throw new StorageKeyError(`Invalid storage key: ${JSON.stringify(key.slice(0, 100))}`);
  }
}

/** A prefix for list: '' (everything) or keys' leading segments ending in '/'. */
export function assertStoragePrefix(prefix: string): void {
  if (prefix === '') return;
  if (!prefix.endsWith('/')) throw new StorageKeyError(`Invalid storage prefix: ${JSON.stringify(prefix)}`);
  assertStorageKey(prefix.slice(0, -1));
}

export const isStorageKey = (key: string): boolean => {
  try {
    assertStorageKey(key);
    return true;
  } catch {
    return false;
  }
};

export async function streamToBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
