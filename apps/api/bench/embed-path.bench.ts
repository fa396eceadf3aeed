/**
 * Benchmark of the public embed path: what a page embedding a model costs the API (the embed detail
 * call, which mints the page load's viewer token, plus the viewer's model lookup with that token, which
 * counts one view), at 50 concurrent connections, beside a bare Express handler measured the same way
 * in the same run. As the share and embed pages do, each page load sends the detail call the token it
 * kept, if any: one load in four is a reload by the previous load's viewer (it sends that viewer's
 * token back, keeps the viewer and must not count again); the others are new viewers.
 *
 * The two are measured INTERLEAVED, in BENCH_SLICES (10) pairs of BENCH_SLICE_SECONDS (1 s) slices,
 * the order alternating (bare, embed, embed, bare, ...), so a change in the machine's load during the
 * run falls on both alike; each pair gives a ratio (embed path API requests/s over bare requests/s),
 * and the run prints their median with its spread (min-max and interquartile range).
 *
 * Checks (PASS/FAIL, exit code 1 on FAIL): after a flush the views recorded equal the distinct
 * server-minted viewers among the loads served, with no viewer load failing; and the median ratio is
 * at least BENCH_MIN_RATIO (0.9).
 *
 *   npm run bench        (or: npx tsx apps/api/bench/embed-path.bench.ts)
 *
 * Environment: BENCH_SLICES, BENCH_SLICE_SECONDS, BENCH_MIN_RATIO, BENCH_CONCURRENCY (default 50),
 * plus what the tests use (TEST_ADMIN_DATABASE_URL / DATABASE_URL for the PostgreSQL server,
 * REDIS_URL). Everything is on 127.0.0.1; the servers run in a child process so the load generator does
 * not share their event loop. The embed rate limits and the ceiling of views per address and link are
 * raised for the run (all requests come from one address, for one link).
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
import { peekViewerToken } from '@helix/server/views/viewer-token';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { createApp } from '../src/app.ts';
import { createEmbedFixture, recordedViews, type EmbedFixture } from '../test/embed-fixture.ts';

const SLICES = Number(process.env.BENCH_SLICES ?? 10);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 1);
const MIN_RATIO = Number(process.env.BENCH_MIN_RATIO ?? 0.9);
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
    VIEWS_PER_ADDRESS_PER_HOUR: '1000000',
    VIEWS_PER_TENANT_ADDRESS_PER_HOUR: '1000000',
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

/**
 * CONCURRENCY loops, each running `step` back to back until the time is up. Answers the whole time
 * taken (with the requests still in flight at the end) and the rate of `count()` up to the deadline:
 * the drain after it, longer for a slower request, is left out of the rate.
 */
async function run(seconds: number, step: () => Promise<void>, count: () => number) {
  const started = performance.now();
  const end = started + seconds * 1000;
  const before = count();
  let rate = NaN;
  const deadline = setTimeout(() => {
    rate = (count() - before) / ((performance.now() - started) / 1000);
  }, seconds * 1000);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) await step();
    }),
  );
  clearTimeout(deadline);
  const elapsed = (performance.now() - started) / 1000;
  return { seconds: elapsed, rate: Number.isNaN(rate) ? (count() - before) / elapsed : rate };
}

async function timed(stats: Stats, request: () => Promise<Response>): Promise<{ ok: boolean; body: string }> {
  const t = performance.now();
  const res = await request();
  const body = await res.text();
  stats.latencies.push(performance.now() - t);
  stats.requests += 1;
  if (!res.ok) stats.errors += 1;
  return { ok: res.ok, body };
}

const newStats = (label: string): Stats => ({ label, requests: 0, errors: 0, latencies: [], seconds: 0 });

/** The median and the spread of a list of numbers. */
function spread(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => {
    const i = (sorted.length - 1) * q;
    const lo = Math.floor(i);
    return sorted[lo]! + (sorted[Math.ceil(i)]! - sorted[lo]!) * (i - lo);
  };
  return { median: at(0.5), min: sorted[0]!, max: sorted.at(-1)!, q1: at(0.25), q3: at(0.75) };
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

    // Warm up both (connections, prepared statements, script cache). No viewer load: no view.
    for (let i = 0; i < 20; i += 1) {
      await (await fetch(bareUrl, { method: 'POST', headers: json, body })).arrayBuffer();
      await (
        await fetch(`${api}/api/model/embed/detail`, { method: 'POST', headers: json, body })
      ).arrayBuffer();
    }

    console.log(
      `Helix embed path benchmark: ${CONCURRENCY} concurrent connections, ${SLICES} interleaved pairs of ` +
        `${SLICE_SECONDS} s slices (bare, embed path), Node ${process.version}`,
    );
    const bare = newStats('bare Express POST /bare');
    const detail = newStats('  POST /api/model/embed/detail');
    const viewer = newStats('  GET /api/viewer/model (1 view)');
    const both = newStats('embed path (detail + viewer load)');
    let loadsServed = 0;
    let loadsSent = 0;
    /** The server-minted viewers among the loads served: one view each (a reload counts nothing). */
    const viewersServed = new Set<string>();
    let lastToken: string | undefined;

    const bareStep = async () => {
      await timed(bare, () => fetch(bareUrl, { method: 'POST', headers: json, body }));
    };
    const embedStep = async () => {
      const t = performance.now();
      loadsSent += 1;
      // Every fourth load is a reload by the previous viewer: its page sends the kept token back.
      const kept = loadsSent % 4 === 0 ? lastToken : undefined;
      const d = await timed(detail, () =>
        fetch(`${api}/api/model/embed/detail`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ token, viewer: kept }),
        }),
      );
      // A page whose detail call failed shows no frame: no viewer load.
      const minted = d.ok ? (JSON.parse(d.body) as { viewer: string }).viewer : undefined;
      if (minted) {
        lastToken = minted;
        const q = new URLSearchParams(viewerQuery);
        q.set('viewer', minted);
        const v = await timed(viewer, () =>
          fetch(`${api}/api/viewer/model?${q.toString()}`, { headers: { Origin: VIEWER_ORIGIN } }),
        );
        if (v.ok) {
          loadsServed += 1;
          viewersServed.add(peekViewerToken(minted) ?? minted);
        } else both.errors += 1;
      } else both.errors += 1;
      both.latencies.push(performance.now() - t);
      both.requests += 1;
    };

    const pairs: { bare: number; embed: number; ratio: number }[] = [];
    const bareCount = () => bare.requests;
    const apiCount = () => detail.requests + viewer.requests;
    // One unmeasured pair first, so both paths are compiled and connected before the first measured
    // one. Its views are counted like the others (viewersServed); its errors are kept for the check.
    await run(SLICE_SECONDS, bareStep, bareCount);
    await run(SLICE_SECONDS, embedStep, apiCount);
    const warmupErrors = detail.errors + viewer.errors;
    for (const stats of [bare, detail, viewer, both]) {
      Object.assign(stats, { requests: 0, errors: 0, latencies: [], seconds: 0 });
    }
    for (let i = 0; i < SLICES; i += 1) {
      let bareRps = 0;
      let apiRps = 0;
      // Alternating order (bare first, then embed first, ...): a steady drift in load cancels out.
      for (const phase of i % 2 === 0 ? ['bare', 'embed'] : ['embed', 'bare']) {
        if (phase === 'bare') {
          const slice = await run(SLICE_SECONDS, bareStep, bareCount);
          bare.seconds += slice.seconds;
          bareRps = slice.rate;
        } else {
          const slice = await run(SLICE_SECONDS, embedStep, apiCount);
          both.seconds += slice.seconds;
          apiRps = slice.rate;
        }
      }
      pairs.push({ bare: bareRps, embed: apiRps, ratio: apiRps / bareRps });
    }
    detail.seconds = viewer.seconds = both.seconds;

    console.log('');
    report(bare);
    report(both);
    report(detail);
    report(viewer);
    console.log('\nPer pair (API requests/s on the embed path over bare requests/s):');
    console.table(
      pairs.map((p, i) => ({
        pair: i + 1,
        'bare req/s': Math.round(p.bare),
        'embed API req/s': Math.round(p.embed),
        ratio: Number(p.ratio.toFixed(2)),
      })),
    );
    const r = spread(pairs.map((p) => p.ratio));
    const ratioOk = r.median >= MIN_RATIO;
    console.log(
      `Ratio to the bare handler: median ${r.median.toFixed(2)}x (min ${r.min.toFixed(2)}x, max ${r.max.toFixed(2)}x, ` +
        `interquartile ${r.q1.toFixed(2)}x-${r.q3.toFixed(2)}x) over ${pairs.length} interleaved pairs; ` +
        `${(both.requests / both.seconds).toFixed(0)} embed page loads/s. ` +
        `Target >= ${MIN_RATIO}x: ${ratioOk ? 'PASS' : 'FAIL'}`,
    );

    // What the worker's flush-views job does, then count.
    child.kill('SIGTERM');
    child = undefined;
    const flushed = await flushViews({ db, redis, prefix }, { recover: true });
    const recorded = await recordedViews(db, fixture.modelId);
    const countOk =
      recorded === viewersServed.size && viewer.errors === 0 && detail.errors === 0 && warmupErrors === 0;
    console.log(
      `\nViews (warm-up pair included): ${loadsSent} loads sent, ${loadsServed} served to ${viewersServed.size} distinct server-minted viewers, ` +
        `${recorded} recorded after the flush ` +
        `(${flushed.batches} batch(es) in the final flush). ${countOk ? 'PASS' : 'FAIL'}`,
    );
    const ok = countOk && ratioOk;
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
