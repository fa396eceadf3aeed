/**
 * `npm run storage:migrate`: copies the local storage folder (STORAGE_DIR, default .data/storage) into
 * the S3 bucket S3_ENDPOINT/S3_BUCKET (with S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY), keys
 * unchanged, so the database's keys stay valid. Safe to run again: objects already copied are skipped.
 * Run it, switch the processes to S3, run it once more for uploads made in between
 * (docs/object-storage.md).
 */
import { copyStorage } from '@helix/server/storage/copy-storage';
import { LocalStorage } from '@helix/server/storage/local-storage';
import { S3Storage } from '@helix/server/storage/s3-storage';
import { loadDotEnv } from './paths.ts';

loadDotEnv();
const env = process.env;
if (!env.S3_ENDPOINT || !env.S3_BUCKET) {
  console.error('S3_ENDPOINT and S3_BUCKET must be set: they name the bucket to copy the folder into.');
  process.exit(2);
}
const from = new LocalStorage(env.STORAGE_DIR ?? '.data/storage');
const to = new S3Storage({
  endpoint: env.S3_ENDPOINT,
  bucket: env.S3_BUCKET,
  region: env.S3_REGION,
  accessKeyId: env.S3_ACCESS_KEY_ID,
  secretAccessKey: env.S3_SECRET_ACCESS_KEY,
});
console.log(`copying ${from.root} into s3 bucket ${to.bucket} at ${env.S3_ENDPOINT}`);
const { copied, skipped } = await copyStorage(from, to, (line) => console.log(line));
console.log(`done: ${copied.length} copied, ${skipped.length} already there`);
