import type { Readable } from 'node:stream';

/**
 * Object storage for model files and images: a local folder by default (STORAGE_DIR), any
 * S3-compatible store when S3_ENDPOINT and S3_BUCKET are set. Keys are relative paths of safe
 * segments ('models/abc.glb', 'images/thumbnail-xyz.webp'); anything else is refused.
 */
export interface StoredObject {
  body: Readable;
  /** Bytes, when the store knows it. */
  size: number | null;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object as a stream, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** The whole object in memory, or null when there is none. */
  getBytes(key: string): Promise<Buffer | null>;
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
