import { describe, expect, it } from 'vitest';
import { S3Storage } from './s3-storage.ts';
import { createStorage } from './create-storage.ts';
import { LocalStorage } from './local-storage.ts';
import { parseConfig } from '../config.ts';

// What the adapter does is checked against a real S3-compatible server: storage-contract.test.ts.
describe('S3Storage configuration', () => {
  it('is chosen when S3_ENDPOINT and S3_BUCKET are set, path-style', async () => {
    const base = { DATABASE_URL: 'postgresql://x@localhost/x' };
    expect(createStorage(parseConfig(base))).toBeInstanceOf(LocalStorage);
    const s3 = createStorage(parseConfig({ ...base, S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'b' }));
    expect(s3).toBeInstanceOf(S3Storage);
    expect(await (s3 as S3Storage).client.config.forcePathStyle).toBe(true);
  });
});
