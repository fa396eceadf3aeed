import type { Config } from '../config.ts';
import type { ServerDeps } from '../deps.ts';
import { LocalStorage } from './local-storage.ts';
import { S3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';

/** S3 when S3_ENDPOINT and S3_BUCKET are both set, else the local folder STORAGE_DIR. */
export function createStorage(config: Config): Storage {
  if (config.S3_ENDPOINT && config.S3_BUCKET) {
    return new S3Storage({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    });
  }
  return new LocalStorage(config.STORAGE_DIR);
}

const fromConfig = new WeakMap<Config, Storage>();

/**
 * The process's storage: deps.storage when main.ts (or a test) set one, else one made from the
 * configuration (once per configuration object).
 */
export function storageOf(deps: Pick<ServerDeps, 'config' | 'storage'>): Storage {
  if (deps.storage) return deps.storage;
  let storage = fromConfig.get(deps.config);
  if (!storage) {
    storage = createStorage(deps.config);
    fromConfig.set(deps.config, storage);
  }
  return storage;
}
