import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type S3rver from 's3rver';

const require = createRequire(import.meta.url);

interface S3ObjectLike {
  bucket: string;
  key: string;
  content: Readable | Buffer | null;
  metadata: Record<string, unknown>;
  range?: { start: number; end: number };
}
type S3ObjectClass = new (
  bucket: string,
  key: string,
  content: Readable | null,
  metadata: Record<string, unknown>,
) => S3ObjectLike;

/** The parts of s3rver's FilesystemStore this file replaces or calls. */
interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  getMetadata(bucket: string, key: string): Promise<Record<string, unknown>>;
  putMetadata(bucket: string, key: string, metadata: Record<string, unknown>, md5: string): Promise<void>;
  putObject(object: S3ObjectLike): Promise<{ size: number; md5: string }>;
  getObject(
    bucket: string,
    key: string,
    options?: { start?: number; end?: number },
  ): Promise<S3ObjectLike | null>;
  deleteObject(bucket: string, key: string): Promise<void>;
}

/**
 * Makes s3rver keep two promises S3 makes and s3rver (3.7) does not:
 * - an object is visible only when it is whole: s3rver writes a PutObject (and a completed multipart
 *   upload) straight into the object's file, so a reader could get half of it. Here the bytes go to a
 *   temporary file (never listed: it does not end in the object suffix) that is renamed into place;
 *   the rename with its metadata and every read of an object's metadata and file are serialized, so a
 *   reader sees the old object or the new one, both with their own size and ETag;
 * - `Range: bytes=0-0` is one byte: s3rver reads an end of 0 as "to the end".
 * Only for the development and test server; real S3 stores do this themselves.
 */
export function makeS3rverAtomic(server: S3rver): void {
  const store = (server as unknown as { store: FilesystemStore }).store;
  const S3Object = require('s3rver/lib/models/object') as S3ObjectClass;
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  store.putObject = async (object) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    const temp = `${objectPath}.${randomBytes(6).toString('hex')}.part`;
    await mkdir(path.dirname(objectPath), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    const source =
      object.content instanceof Readable
        ? object.content
        : Readable.from([object.content ?? Buffer.alloc(0)]);
    try {
      await pipeline(
        source,
        new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            md5.update(chunk);
            size += chunk.length;
            callback(null, chunk);
          },
        }),
        createWriteStream(temp),
      );
      const digest = md5.digest('hex');
      await exclusive(async () => {
        await rename(temp, objectPath);
        await store.putMetadata(object.bucket, object.key, object.metadata, digest);
      });
      return { size, md5: digest };
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  };

  store.getObject = (bucket, key, options) =>
    exclusive(async () => {
      let metadata: Record<string, unknown>;
      try {
        metadata = await store.getMetadata(bucket, key);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      const lastByte = Math.max(0, Number(metadata['content-length']) - 1);
      const ranged = options?.start !== undefined || options?.end !== undefined;
      const range = { start: options?.start ?? 0, end: Math.min(options?.end ?? Infinity, lastByte) };
      if (range.start < 0 || range.end < range.start) {
        const object = new S3Object(bucket, key, null, metadata);
        if (ranged) object.range = range;
        return object;
      }
      // Opened before the next rename may replace the file: the stream reads these bytes.
      const content = await new Promise<Readable>((resolve, reject) => {
        const stream = createReadStream(store.getResourcePath(bucket, key, 'object'), range)
          .once('error', reject)
          .once('open', () => resolve(stream));
      });
      const object = new S3Object(bucket, key, content, metadata);
      if (ranged) object.range = range;
      return object;
    });

  const deleteObject = store.deleteObject.bind(store);
  store.deleteObject = (bucket, key) => exclusive(() => deleteObject(bucket, key));
}
