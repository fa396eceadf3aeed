/**
 * Benchmark of the public embed path: what a page embedding a model costs the API (the embed detail
 * call plus the viewer's model lookup, which counts one view), at 50 concurrent connections, beside a
 * bare Express handler measured the same way in the same run. Each page load sends a viewer id, as the
 * share and embed pages do; one load in four repeats the previous load's viewer (a reload), which must
 * not count again. Afterwards the buffered views are flushed and the views recorded must equal the
 * distinct viewers among the loads served (PASS/FAIL, exit code 1 on FAIL).
 *
 *   npm run bench        (or: npx tsx apps/api/bench/embed-path.bench.ts)
 *
 * Environment: BENCH_SECONDS (default 10), BENCH_CONCURRENCY (default 50), plus what the tests use
 * (TEST_ADMIN_DATABASE_URL / DATABASE_URL for the PostgreSQL server, REDIS_URL). Everything is on
 * 127.0.0.1; the servers run in a child process so the load generator does not share their event loop.
 * The embed rate limits are raised for the run (all requests come from one address, for one link).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createLogger, parseConfig } from '@helix/server';
import { createDb } from '@helix/server/db';
import { COMMAND_CLIENT_OPTIONS, createRedis, redisReady } from '@helix/server/redis';
import { JobQueue } from '@helix/server/queue/job-queue';
import { LocalStorage } from '@helix/server/storage/local-storage';
import { flushViews } from '@helix/server/views/flush-views';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { createApp } from '../src/app.ts';
import { createEmbedFixture, recordedViews, type EmbedFixture } from '../test/embed-fixture.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const VIEWER_ORIGIN = 'http://127.0.0.1:9';

interface Setup {
  databaseUrl: string;
  prefix: string;
  storageDir: string;
  token: string;
  urlModelName: string;
}

interface Ready {
  api: number;
  bare: number;
}

// ---- child: the servers ---------------------------------------------------------------------------

async function serve(setup: Setup) {
  const config = parseConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: setup.databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: setup.prefix,
    STORAGE_DIR: setup.storageDir,
    PUBLIC_URL: 'http://127.0.0.1',
    VIEWER_URL: VIEWER_ORIGIN,
    SIGNING_SECRET: randomBytes(32).toString('hex'),
    EMBED_RATE_LIMIT_MAX: '100000000',
    EMBED_TOKEN_RATE_LIMIT_MAX: '100000000',
  });
  const db = createDb(config.DATABASE_URL);
  const redis = createRedis(REDIS_URL, COMMAND_CLIENT_OPTIONS); // as main.ts
  await redisReady(redis); // no offline queue: connected before the first call
  const queueConnection = createRedis(REDIS_URL, { maxRetriesPerRequest: null });
  const app = createApp({
    config,
    db,
    redis,
    queue: new JobQueue(queueConnection, config.REDIS_PREFIX),
    logger: createLogger('silent', 'bench'),
    storage: new LocalStorage(setup.storageDir),
  });
  const bare = express();
  bare.use(express.json());
  bare.post('/bare', (req, res) => {
    res.json({ success: true, echo: typeof req.body?.token === 'string' });
  });
  const listen = (server: Server) =>
    new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    );
  const ready: Ready = { api: await listen(createServer(app)), bare: await listen(createServer(bare)) };
  process.send?.(ready);
}

// ---- parent: setup, load, check ---------------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Stats {
  label: string;
  requests: number;
  errors: number;
  latencies: number[];
  seconds: number;
}

function report(s: Stats) {
  const sorted = [...s.latencies].sort((a, b) => a - b);
  const rps = s.requests / s.seconds;
  console.log(
    `${s.label.padEnd(34)} ${String(s.requests).padStart(7)} req  ${rps.toFixed(0).padStart(6)} req/s  ` +
      `p50 ${percentile(sorted, 50).toFixed(2).padStart(7)} ms  p99 ${percentile(sorted, 99).toFixed(2).padStart(7)} ms` +
      (s.errors ? `  (${s.errors} non-2xx)` : ''),
  );
}

/** CONCURRENCY loops, each running `step` back to back until the time is up. */
async function run(seconds: number, step: () => Promise<void>) {
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) await step();
    }),
  );
  return (performance.now() - started) / 1000;
}

async function timed(stats: Stats, request: () => Promise<Response>): Promise<Response> {
  const t = performance.now();
  const res = await request();
  await res.arrayBuffer();
  stats.latencies.push(performance.now() - t);
  stats.requests += 1;
  if (!res.ok) stats.errors += 1;
  return res;
}

async function main() {
  const database = await createTestDatabase('helix_bench');
  const prefix = `helixbench-${randomBytes(4).toString('hex')}`;
  const db = createDb(database.url);
  const redis = createRedis(REDIS_URL);
  let fixture: EmbedFixture | undefined;
  let child: ChildProcess | undefined;
  let failed = false;
  try {
    fixture = await createEmbedFixture(db);
    const { token, urlModelName } = fixture;

    const setup: Setup = {
      databaseUrl: database.url,
      prefix,
      storageDir: fixture.storageDir,
      token,
      urlModelName,
    };
    child = fork(fileURLToPath(import.meta.url), ['--serve', JSON.stringify(setup)], { stdio: 'inherit' });
    const ports = await new Promise<Ready>((resolve, reject) => {
      child!.once('message', (m) => resolve(m as Ready));
      child!.once('exit', (code) => reject(new Error(`server process exited (${code})`)));
    });
    const api = `http://127.0.0.1:${ports.api}`;
    const bareUrl = `http://127.0.0.1:${ports.bare}/bare`;
    const body = JSON.stringify({ token });
    const json = { 'Content-Type': 'application/json' };
    const viewerQuery = new URLSearchParams({
      model: urlModelName,
      subscription: token,
      currentmode: 'embedding',
      version: '1',
    });

    // Warm up both (connections, prepared statements, script cache).
    for (let i = 0; i < 20; i += 1) {
      await (await fetch(bareUrl, { method: 'POST', headers: json, body })).arrayBuffer();
      await (
        await fetch(`${api}/api/model/embed/detail`, { method: 'POST', headers: json, body })
      ).arrayBuffer();
    }
    const warmupLoads = 0;

    console.log(
      `Helix embed path benchmark: ${CONCURRENCY} concurrent connections, ${SECONDS} s each, Node ${process.version}`,
    );
    const bare: Stats = {
      label: 'bare Express POST /bare',
      requests: 0,
      errors: 0,
      latencies: [],
      seconds: 0,
    };
    bare.seconds = await run(SECONDS, async () => {
      await timed(bare, () => fetch(bareUrl, { method: 'POST', headers: json, body }));
    });

    const detail: Stats = {
      label: '  POST /api/model/embed/detail',
      requests: 0,
      errors: 0,
      latencies: [],
      seconds: 0,
    };
    const viewer: Stats = {
      label: '  GET /api/viewer/model (1 view)',
      requests: 0,
      errors: 0,
      latencies: [],
      seconds: 0,
    };
    const both: Stats = {
      label: 'embed path (detail + viewer load)',
      requests: 0,
      errors: 0,
      latencies: [],
      seconds: 0,
    };
    let loadsServed = 0;
    let loadsSent = 0;
    /** Viewers among the loads served: one view each (a reload within the window counts nothing). */
    const viewersServed = new Set<string>();
    let lastViewer = randomBytes(16).toString('base64url');
    const seconds = await run(SECONDS, async () => {
      const t = performance.now();
      const d = await timed(detail, () =>
        fetch(`${api}/api/model/embed/detail`, { method: 'POST', headers: json, body }),
      );
      loadsSent += 1;
      // Every fourth load is a reload by the previous viewer.
      const who = loadsSent % 4 === 0 ? lastViewer : randomBytes(16).toString('base64url');
      lastViewer = who;
      const q = new URLSearchParams(viewerQuery);
      q.set('viewer', who);
      const v = await timed(viewer, () =>
        fetch(`${api}/api/viewer/model?${q.toString()}`, { headers: { Origin: VIEWER_ORIGIN } }),
      );
      if (v.ok) {
        loadsServed += 1;
        viewersServed.add(who);
      }
      both.latencies.push(performance.now() - t);
      both.requests += 1;
      if (!d.ok || !v.ok) both.errors += 1;
    });
    detail.seconds = viewer.seconds = both.seconds = seconds;

    console.log('');
    report(bare);
    report(both);
    report(detail);
    report(viewer);
    const httpRps = (detail.requests + viewer.requests) / seconds;
    const bareRps = bare.requests / bare.seconds;
    console.log(
      `\nAPI requests on the embed path: ${httpRps.toFixed(0)} req/s = ${((100 * httpRps) / bareRps).toFixed(0)}% of the bare handler; ` +
        `${(both.requests / seconds).toFixed(0)} embed page loads/s.`,
    );

    // What the worker's flush-views job does, then count.
    child.kill('SIGTERM');
    child = undefined;
    const flushed = await flushViews({ db, redis, prefix }, { recover: true });
    const recorded = await recordedViews(db, fixture.modelId);
    const expected = viewersServed.size + warmupLoads;
    const ok = recorded === expected && viewer.errors === 0;
    console.log(
      `\nViews: ${loadsSent} loads sent, ${loadsServed} served by ${viewersServed.size} distinct viewers, ` +
        `${recorded} recorded after the flush ` +
        `(${flushed.batches} batch(es) in the final flush). ${ok ? 'PASS' : 'FAIL'}`,
    );
    failed = !ok;
  } finally {
    child?.kill('SIGTERM');
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
    await db.$disconnect();
    await dropDatabase(database.name);
    if (fixture) await rm(fixture.storageDir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[2] === '--serve') {
  serve(JSON.parse(process.argv[3] ?? '{}') as Setup).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
