import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { assertStorageKey, streamToBuffer, type Storage, type StoredObject } from './storage.ts';
import { StorageUnavailableError } from './storage-unavailable.error.ts';

export interface S3StorageOptions {
  endpoint: string;
  bucket: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

const isNotFound = (error: unknown): boolean =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/**
 * Every failure of the store other than "not found" (unreachable, 5xx, access denied, full) is the
 * store's, not the request's: StorageUnavailableError (503 STORAGE_UNAVAILABLE).
 */
const named = (error: unknown): unknown =>
  error instanceof StorageUnavailableError ? error : new StorageUnavailableError(error);

/** Any S3-compatible store (AWS, MinIO, R2, ...), addressed path-style. */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;

  constructor(options: S3StorageOptions, client?: S3Client) {
    this.bucket = options.bucket;
    this.client =
      client ??
      new S3Client({
        endpoint: options.endpoint,
        region: options.region ?? 'us-east-1',
        forcePathStyle: true,
        credentials:
          options.accessKeyId && options.secretAccessKey
            ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
            : undefined,
      });
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertStorageKey(key);
    await this.client
      .send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType }))
      .catch((error: unknown) => {
        throw named(error);
      });
  }

  async get(key: string): Promise<StoredObject | null> {
    assertStorageKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!answer.Body) return null;
      const body =
        answer.Body instanceof Readable
          ? answer.Body
          : Readable.from(answer.Body as unknown as AsyncIterable<Uint8Array>);
      return { body, size: answer.ContentLength ?? null };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw named(error);
    }
  }

  async getBytes(key: string): Promise<Buffer | null> {
    const object = await this.get(key);
    return object ? streamToBuffer(object.body) : null;
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
    assertStorageKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw named(error);
    }
  }
}
