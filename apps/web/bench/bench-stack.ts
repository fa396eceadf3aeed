import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStack, type Stack } from '../../../packages/stack/src/stack.ts';
import { createDatabase, dropDatabase } from '../../../packages/stack/src/test-db.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface BenchStack {
  stack: Stack;
  databaseUrl: string;
  /** Stops the stack, drops its database and removes its files. */
  stop(): Promise<void>;
}

/**
 * The built app as `npm start` serves it (production mode, no build), over a database and a Redis
 * prefix of its own, for the web benchmarks. `env` adds to or overrides the defaults (rate limits).
 */
export async function startBenchStack(name: string, env: Record<string, string> = {}): Promise<BenchStack> {
  const dist = path.join(here, '..', 'dist', 'index.html');
  if (!existsSync(dist)) throw new Error('apps/web/dist is missing: run `npm run build` first');

  const tmp = mkdtempSync(path.join(os.tmpdir(), `helix-bench-${name}-`));
  const dbName = `helix_bench_${name}_${randomBytes(4).toString('hex')}`;
  const databaseUrl = await createDatabase(dbName);
  let stack: Stack | undefined;
  const stop = async () => {
    await stack?.stop();
    await dropDatabase(dbName).catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    stack = await startStack({
      databaseUrl,
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      build: false,
      quiet: true,
      dataDir: path.join(tmp, 'data'),
      env: {
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        SIGNING_SECRET: randomBytes(32).toString('hex'),
        REDIS_PREFIX: `helix-bench-${name}-${randomBytes(3).toString('hex')}`,
        ...env,
      },
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { stack, databaseUrl, stop };
}
