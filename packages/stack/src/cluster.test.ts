import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx } from './nginx.ts';
import { portAnswers } from './services/net.ts';
import { startStack, type Stack } from './stack.ts';
import { createTestDatabase, dropDatabase } from '@helix/server/testing/test-db';

/**
 * `npm run start:cluster`'s shape: two API processes, two workers and the viewer behind nginx, over one
 * PostgreSQL and one Redis. nginx is Debian's (.ci/run installs it); without it the test says so.
 */
const nginx = findNginx();
let stack: Stack;
let database: { name: string; url: string };
let tmp: string;
const ASSET = 'assets/app-3f2a9c.js';
const assetBody = `export const helix = "${'cluster '.repeat(400)}";\n`;

beforeAll(async () => {
  if (!nginx) return;
  database = await createTestDatabase('helix_cluster');
  tmp = mkdtempSync(path.join(tmpdir(), 'helix-cluster-'));
  // A built web app of one hashed asset (and its .gz, as the build writes it).
  const webDist = path.join(tmp, 'web');
  mkdirSync(path.join(webDist, 'assets'), { recursive: true });
  writeFileSync(path.join(webDist, ASSET), assetBody);
  writeFileSync(path.join(webDist, `${ASSET}.gz`), gzipSync(assetBody));
  // A built viewer of its page alone.
  const viewerDist = path.join(tmp, 'viewer');
  mkdirSync(viewerDist);
  writeFileSync(path.join(viewerDist, 'index.html'), '<!doctype html><title>Viewer</title><head></head>');
  stack = await startStack({
    databaseUrl: database.url,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    build: false,
    seed: false,
    quiet: true,
    dataDir: path.join(tmp, 'data'),
    stripePort: 0,
    stripePersist: false,
    cluster: { apis: 2, workers: 2 },
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      REDIS_PREFIX: `helix-cluster-${randomBytes(3).toString('hex')}`,
      WEB_DIST_DIR: webDist,
      VIEWER_DIST: viewerDist,
      SHUTDOWN_DRAIN_MS: '300',
    },
  });
}, 600_000);

afterAll(async () => {
  await stack?.stop();
  if (database) await dropDatabase(database.name);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 600_000);

/** The upstream of each logged request, in order (the access log names the process that answered). */
const upstreamsLogged = () =>
  readFileSync(stack.cluster!.nginx.accessLog, 'utf8')
    .split('\n')
    .flatMap((line) => line.match(/upstream=(\S+)/)?.[1] ?? []);

describe.skipIf(!nginx)('the cluster (npm run start:cluster)', () => {
  it('gives every process the same S3-compatible object storage (the embedded server)', async () => {
    expect(stack.env.S3_ENDPOINT).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stack.env.S3_BUCKET).toBe('helix');
    // The bucket answers (s3rver lists it; an unsigned request is refused, not unanswered).
    const res = await fetch(`${stack.env.S3_ENDPOINT}/helix`);
    await res.arrayBuffer();
    expect(res.status).toBeLessThan(500);
  });

  it('runs two API processes and two workers, each API ready on its own port', async () => {
    expect(Object.keys(stack.cluster!.apis)).toEqual(['api-1', 'api-2']);
    expect(stack.cluster!.workers).toEqual(['worker-1', 'worker-2']);
    for (const name of ['worker-1', 'worker-2'] as const) expect(stack.process(name)?.running).toBe(true);
    for (const url of Object.values(stack.cluster!.apis)) {
      const res = await fetch(`${url}/api/health/ready`);
      expect(res.status).toBe(200);
    }
  });

  it('answers through nginx from both API processes', async () => {
    const before = upstreamsLogged().length;
    for (let i = 0; i < 8; i += 1) {
      const res = await fetch(`${stack.apiUrl}/api/health`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    }
    // nginx writes a line after each answer: wait for the last ones.
    let lines: string[] = [];
    for (let i = 0; i < 20 && lines.length < 8; i += 1) {
      lines = upstreamsLogged().slice(before);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const apis = Object.values(stack.cluster!.apis).map((url) => new URL(url).host);
    expect(new Set(lines)).toEqual(new Set(apis));
  });

  it('serves hashed assets itself, compressed, cached for a year', async () => {
    const res = await fetch(`${stack.apiUrl}/${ASSET}`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toBe(assetBody); // fetch decompresses
  });

  it('proxies the viewer host', async () => {
    const res = await fetch(`${stack.viewerUrl}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>Viewer</title>');
  });

  it('keeps answering while one API process stops (it drains, nginx sends the rest to the other)', async () => {
    const stopping = stack.process('api-1')!.stop(10_000);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const res = await fetch(`${stack.apiUrl}/api/health`);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect((await stopping).code).toBe(0);
    for (let i = 0; i < 10; i += 1) {
      const res = await fetch(`${stack.apiUrl}/api/health`);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  }, 600_000);

  it('stops cleanly: nginx and every process', async () => {
    const { configFile } = stack.cluster!.nginx;
    const port = Number(new URL(stack.apiUrl).port);
    await stack.stop();
    expect(await portAnswers(port)).toBe(false);
    expect(existsSync(path.join(path.dirname(configFile), 'nginx.pid'))).toBe(false);
    for (const name of ['api-2', 'worker-1', 'worker-2', 'viewer'] as const) {
      expect(stack.process(name)?.running ?? false).toBe(false);
    }
  }, 600_000);
});

describe.runIf(!nginx)('the cluster without nginx', () => {
  it('is skipped: install nginx (apt-get install nginx) to run it', () => {
    expect(nginx).toBeNull();
  });
});
