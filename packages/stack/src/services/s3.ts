import { mkdirSync } from 'node:fs';
import path from 'node:path';
import S3rver from 's3rver';
import { DEFAULT_DATA_DIR } from '../paths.ts';
import { makeS3rverAtomic } from './s3rver-atomic.ts';
import { displayPath, noStop, redact, type Service, type ServiceOptions } from './types.ts';

/** The credentials s3rver checks signatures with (it has no users). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3Options extends ServiceOptions {
  /** Where the embedded server keeps its objects (default <dataDir>/s3). */
  directory?: string;
  /** The bucket it creates when missing (default 'helix'). */
  bucket?: string;
  /** Port on 127.0.0.1 (default: a free one). */
  port?: number;
}

export interface S3Service extends Service {
  /** The storage configuration for the processes: S3_ENDPOINT, S3_BUCKET, credentials, region. */
  env: Record<string, string>;
  /** Set when the stack's own server is in use: the folder it keeps objects in. */
  directory?: string;
}

/**
 * Object storage for `STORAGE=s3`: S3_ENDPOINT and S3_BUCKET when they are set (any S3-compatible
 * store), otherwise an embedded S3-compatible server (s3rver, from npm) on 127.0.0.1.
 */
export async function resolveS3(options: S3Options = {}): Promise<S3Service> {
  const endpoint = process.env.S3_ENDPOINT;
  const bucket = process.env.S3_BUCKET;
  if (endpoint && bucket)
    return {
      url: endpoint,
      kind: 'external',
      description: `object storage: bucket ${bucket} at ${redact(endpoint)} (S3_ENDPOINT)`,
      env: {},
      stop: noStop,
    };
  return startS3Server(options);
}

/**
 * An S3-compatible server (s3rver) on 127.0.0.1 keeping objects in `directory`, with the bucket made.
 * It speaks the S3 REST API the AWS SDK v3 client uses: Put/Get (with Range)/Head/Delete/List and
 * multipart uploads, made atomic like S3 (s3rver-atomic.ts). For development, tests and the local
 * cluster; not for production.
 */
export async function startS3Server(options: S3Options = {}): Promise<S3Service> {
  const directory = path.resolve(options.directory ?? path.join(options.dataDir ?? DEFAULT_DATA_DIR, 's3'));
  const bucket = options.bucket ?? 'helix';
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  makeS3rverAtomic(server);
  const { port } = await server.run();
  const url = `http://127.0.0.1:${port}`;
  let stopped: Promise<void> | undefined;
  return {
    url,
    kind: 'embedded',
    description: `object storage: embedded S3-compatible server ${url}, bucket ${bucket}, in ${displayPath(directory)}`,
    directory,
    env: {
      S3_ENDPOINT: url,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
    stop: () => (stopped ??= server.close()),
  };
}
