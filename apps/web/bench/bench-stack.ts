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

/** The seeded demo school's owner (packages/stack's seed), who signs in for the signed-in pages. */
export const DEMO_OWNER = { email: 'owner@demo.helix.local', password: 'owner-demo-2026' };

async function api<T>(base: string, route: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(new URL(route, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** An embed link of the demo cell, made by the demo tenant's owner through the API. */
export async function embedToken(apiUrl: string): Promise<string> {
  const login = await api<{ apiToken: string; tenant?: string; user?: { tenant?: string } }>(
    apiUrl,
    '/api/user/login',
    DEMO_OWNER,
  );
  const tenant = 'demo';
  const listing = await fetch(new URL(`/api/t/${tenant}/model/all`, apiUrl), {
    headers: { authorization: `Bearer ${login.apiToken}` },
  });
  if (!listing.ok) throw new Error(`/model/all: ${listing.status}`);
  const models = (await listing.json()) as
    { models?: { id: number; name: string }[] } | { id: number; name: string }[];
  const list = Array.isArray(models) ? models : (models.models ?? []);
  const cell = list.find((m) => /cell/i.test(m.name));
  if (!cell) throw new Error(`no demo cell among ${list.map((m) => m.name).join(', ')}`);
  const embed = await api<{ token?: string; embedToken?: string; url?: string }>(
    apiUrl,
    `/api/t/${tenant}/model/embed`,
    { id: cell.id, settings: [] },
    login.apiToken,
  );
  const token = embed.token ?? embed.embedToken ?? embed.url?.split('/').pop();
  if (!token) throw new Error(`no token in ${JSON.stringify(embed)}`);
  return token;
}
