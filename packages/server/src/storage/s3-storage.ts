import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  assertStorageKey,
  assertStoragePrefix,
  streamToBuffer,
  type ByteRange,
  type ObjectInfo,
  type Storage,
  type StorageBody,
  type StoredObject,
} from './storage.ts';
import { StorageUnavailableError } from './storage-unavailable.error.ts';

export interface S3StorageOptions {
  endpoint: string;
  bucket: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Attempts per call, retries included (default 3). */
  maxAttempts?: number;
  /** Part size of a streamed upload (default S3_PART_SIZE; S3's minimum is 5 MiB). */
  partSize?: number;
}

/** A streamed upload is sent in parts of this size; a smaller stream is one PutObject. */
export const S3_PART_SIZE = 8 * 1024 * 1024;

const isNotFound = (error: unknown): boolean =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404) &&
  error.name !== 'NoSuchBucket';

/**
 * Every failure of the store other than "not found" (unreachable, 5xx, access denied, full, no such
 * bucket) is the store's, not the request's: StorageUnavailableError (503 STORAGE_UNAVAILABLE).
 */
const named = (error: unknown): unknown =>
  error instanceof StorageUnavailableError ? error : new StorageUnavailableError(error);

const asReadable = (body: unknown): Readable =>
  body instanceof Readable ? body : Readable.from(body as AsyncIterable<Uint8Array>);

/**
 * Any S3-compatible store (AWS, MinIO, R2, Ceph, s3rver, ...), addressed path-style. Bytes are one
 * PutObject (S3 makes an object visible only when the whole request is stored); a stream goes through
 * the SDK's Upload: one PutObject when it is under S3_PART_SIZE, else a multipart upload that S3 shows
 * only on CompleteMultipartUpload, and that is aborted (never completed) when the stream fails.
 */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  readonly partSize: number;

  constructor(options: S3StorageOptions, client?: S3Client) {
    this.bucket = options.bucket;
    this.partSize = options.partSize ?? S3_PART_SIZE;
    this.client =
      client ??
      new S3Client({
        endpoint: options.endpoint,
        region: options.region ?? 'us-east-1',
        forcePathStyle: true,
        maxAttempts: options.maxAttempts ?? 3,
        // Checksums only where S3 requires them: S3-compatible stores do not all know the newer ones.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        // A store that does not answer is unavailable, not a request that hangs for minutes.
        requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000 },
        credentials:
          options.accessKeyId && options.secretAccessKey
            ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
            : undefined,
      });
  }

  async put(key: string, body: StorageBody, contentType: string): Promise<void> {
    assertStorageKey(key);
    const params = { Bucket: this.bucket, Key: key, ContentType: contentType };
    // A stream that fails (the client went away) is the request's failure, not the store's.
    let bodyError: unknown;
    try {
      if (body instanceof Readable) {
        body.once('error', (error) => (bodyError ??= error));
        await new Upload({
          client: this.client,
          params: { ...params, Body: body },
          partSize: this.partSize,
        }).done();
      } else {
        await this.client.send(new PutObjectCommand({ ...params, Body: body }));
      }
    } catch (error) {
      throw bodyError ?? named(error);
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | null> {
    assertStorageKey(key);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      if (!answer.Body) return null;
      return { body: asReadable(answer.Body), size: answer.ContentLength ?? null };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw named(error);
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    assertStorageKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: head.ContentLength ?? 0,
        etag: head.ETag ?? `"${(head.ContentLength ?? 0).toString(16)}-${head.LastModified?.getTime() ?? 0}"`,
        lastModified: head.LastModified ?? null,
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw named(error);
    }
  }

  async getBytes(key: string): Promise<Buffer | null> {
    const object = await this.get(key);
    if (!object) return null;
    try {
      return await streamToBuffer(object.body);
    } catch (error) {
      throw named(error);
    }
  }

  async list(prefix: string): Promise<string[]> {
    assertStoragePrefix(prefix);
    const keys: string[] = [];
    try {
      for await (const page of paginateListObjectsV2(
        { client: this.client },
        { Bucket: this.bucket, Prefix: prefix },
      )) {
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      }
    } catch (error) {
      throw named(error);
    }
    return keys.sort();
  }

  async delete(key: string): Promise<void> {
    assertStorageKey(key);
    await this.client
      .send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }))
      .catch((error: unknown) => {
        throw named(error);
      });
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }
}
