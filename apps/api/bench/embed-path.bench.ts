/**
 * Benchmark of the public embed path: what a page embedding a model costs the API per page load, at 50
 * concurrent connections, beside a bare Express handler measured the same way in the same run. A page
 * load is what a browser does (apps/api/src/http/public-link-page.ts): GET /embed/{token}, the page the
 * server draws with the viewer frame and its fresh viewer token in it, then the viewer's one API call,
 * GET /api/viewer/model, which counts one view and answers the token to keep. One load in four is a
 * reload by the previous load's viewer: it sends the token its viewer kept (`kept`), keeps the viewer
 * and must not count again; the others are new viewers.
 *
 * The two are measured INTERLEAVED, in BENCH_SLICES (10) pairs of BENCH_SLICE_SECONDS (1 s) slices,
 * the order alternating (bare, embed, embed, bare, ...), so a change in the machine's load during the
 * run falls on both alike; each pair gives a ratio (embed page loads/s over bare requests/s), and the
 * run prints their median with its spread (min-max and interquartile range), the server process's CPU
 * per page load beside its CPU per bare request (their quotient is the figure a busy machine moves
 * least: the 0.6x target needs a page load to cost at most 1/0.6 bare requests) and the machine's load
 * (os.loadavg).
 *
 * Checks (PASS/FAIL, exit code 1 on FAIL): after a flush the views recorded equal the distinct
 * server-minted viewers among the loads served, with no load failing; the median ratio is at least
 * BENCH_MIN_RATIO (0.6); the p99 of a page load is at most BENCH_MAX_P99_RATIO (2) times the bare p99.
 *
 *   npm run bench        (or: npx tsx apps/api/bench/embed-path.bench.ts)
 *
 * Environment: BENCH_SLICES, BENCH_SLICE_SECONDS, BENCH_MIN_RATIO, BENCH_MAX_P99_RATIO,
 * BENCH_CONCURRENCY (default 50), BENCH_CPU_PROF (a folder: the server process writes a CPU profile
 * of each embed slice there, embed-slice-N.cpuprofile: the page loads alone, without the start-up or
 * the bare handler's slices), BENCH_LOG (the server's log level, default silent), BENCH_FLOW=detail (the page loads as they were before issue 30:
 * POST /api/model/embed/detail, then the viewer's call; for comparing), plus what the tests use
 * (TEST_ADMIN_DATABASE_URL / DATABASE_URL for the PostgreSQL server, REDIS_URL). Everything is on
 * 127.0.0.1; the servers run in a child process so the load generator does not share their event loop.
 * The embed rate limits and the ceiling of views per address and link are raised for the run (all
 * requests come from one address, for one link).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector';
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
import { writeLinkPageBundle } from '../test/link-page-bundle.ts';

const SLICES = Number(process.env.BENCH_SLICES ?? 10);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 1);
const MIN_RATIO = Number(process.env.BENCH_MIN_RATIO ?? 0.6);
const MAX_P99_RATIO = Number(process.env.BENCH_MAX_P99_RATIO ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const FLOW = process.env.BENCH_FLOW === 'detail' ? 'detail' : 'page';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const VIEWER_ORIGIN = 'http://127.0.0.1:9';
/** The built embed document when there is one, else a shell of the same shape. */
const BUILT_EMBED = fileURLToPath(new URL('../../web/dist/embed.html', import.meta.url));
/** The web's built server bundle (it renders the link pages), else its sources (test/link-page-bundle.ts). */
const BUILT_BUNDLE = fileURLToPath(new URL('../../web/dist-server', import.meta.url));
const SHELL =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Helix</title></head>' +
  '<body><div id="root"><p class="boot-screen" role="status">Loading…</p></div></body></html>';

interface Setup {
  databaseUrl: string;
  prefix: string;
  storageDir: string;
  webDir: string;
  token: string;
  urlModelName: string;
  /** BENCH_CPU_PROF: where the server process writes a CPU profile of each embed slice. */
  profileDir?: string;
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
    WEB_DIST_DIR: setup.webDir,
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
    logger: createLogger(process.env.BENCH_LOG ?? 'silent', 'bench'),
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
  // The parent asks for this process's CPU time around each slice, and (BENCH_CPU_PROF) for a CPU
  // profile of each embed slice alone: the start-up and the bare handler's slices stay out of it.
  const profiler = setup.profileDir ? new Session() : null;
  profiler?.connect();
  let profiles = 0;
  process.on('message', (m) => {
    if (m === 'cpu') process.send?.({ cpu: process.cpuUsage() });
    if (m === 'profile' && profiler) {
      profiler.post('Profiler.enable', () =>
        profiler.post('Profiler.start', () => process.send?.('profiling')),
      );
    }
    if (m === 'profiled' && profiler) {
      profiler.post('Profiler.stop', (err, result) => {
        const file = path.join(setup.profileDir!, `embed-slice-${(profiles += 1)}.cpuprofile`);
        if (err) console.error(err);
        void writeFile(file, JSON.stringify(result?.profile ?? {})).then(() => process.send?.('profiled'));
      });
    }
    if (m === 'exit') process.exit(0);
  });
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
    `${s.label.padEnd(40)} ${String(s.requests).padStart(7)}  ${rps.toFixed(0).padStart(6)} /s  ` +
      `p50 ${percentile(sorted, 50).toFixed(2).padStart(7)} ms  p99 ${percentile(sorted, 99).toFixed(2).padStart(7)} ms` +
      (s.errors ? `  (${s.errors} non-2xx)` : ''),
  );
}

const p99 = (s: Stats) =>
  percentile(
    [...s.latencies].sort((a, b) => a - b),
    99,
  );

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

/** The median and the spread of a list of numbers (a pair whose bare slice stalled is left out). */
function spread(values: number[]) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const at = (q: number) => {
    const i = (sorted.length - 1) * q;
    const lo = Math.floor(i);
    return sorted[lo]! + (sorted[Math.ceil(i)]! - sorted[lo]!) * (i - lo);
  };
  return { median: at(0.5), min: sorted[0]!, max: sorted.at(-1)!, q1: at(0.25), q3: at(0.75) };
}

/** The machine's load averages (1, 5, 15 min) and cores, printed beside the figures. */
export const machineLoad = (): string =>
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')} on ${os.cpus().length} cores`;

/** The viewer frame's address in a page the server drew. */
function frameOf(html: string): URL | null {
  const src = /<iframe[^>]* src="([^"]+)"/.exec(html)?.[1];
  return src ? new URL(src.replaceAll('&amp;', '&')) : null;
}

async function main() {
  const database = await createTestDatabase('helix_bench');
  const prefix = `helixbench-${randomBytes(4).toString('hex')}`;
  const db = createDb(database.url);
  const redis = createRedis(REDIS_URL);
  const webRoot = await mkdtemp(path.join(os.tmpdir(), 'helix-bench-web-'));
  const webDir = path.join(webRoot, 'dist');
  let fixture: EmbedFixture | undefined;
  let child: ChildProcess | undefined;
  let failed = false;
  try {
    fixture = await createEmbedFixture(db);
    const { token, urlModelName } = fixture;
    await mkdir(webDir);
    if (existsSync(BUILT_BUNDLE)) await symlink(BUILT_BUNDLE, path.join(webRoot, 'dist-server'), 'dir');
    else await writeLinkPageBundle(webDir);
    if (existsSync(BUILT_EMBED)) await copyFile(BUILT_EMBED, path.join(webDir, 'embed.html'));
    else await writeFile(path.join(webDir, 'embed.html'), SHELL);
    await writeFile(path.join(webDir, 'index.html'), SHELL);

    const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
    if (profileDir) await mkdir(profileDir, { recursive: true });
    const setup: Setup = {
      profileDir,
      databaseUrl: database.url,
      prefix,
      storageDir: fixture.storageDir,
      webDir,
      token,
      urlModelName,
    };
    child = fork(fileURLToPath(import.meta.url), ['--serve', JSON.stringify(setup)], {
      stdio: 'inherit',
      execArgv: process.execArgv,
    });
    const server = child;
    const ports = await new Promise<Ready>((resolve, reject) => {
      server.once('message', (m) => resolve(m as Ready));
      server.once('exit', (code) => reject(new Error(`server process exited (${code})`)));
    });
    const cpuNow = () =>
      new Promise<number>((resolve) => {
        const on = (m: unknown) => {
          const cpu = (m as { cpu?: NodeJS.CpuUsage }).cpu;
          if (!cpu) return;
          server.off('message', on);
          resolve((cpu.user + cpu.system) / 1000);
        };
        server.on('message', on);
        server.send('cpu');
      });
    /** Asks the server process to start (`profile`) or stop and write (`profiled`) a CPU profile. */
    const profiling = (m: 'profile' | 'profiled') =>
      new Promise<void>((resolve) => {
        if (!profileDir) return resolve();
        const on = (answer: unknown) => {
          if (answer !== (m === 'profile' ? 'profiling' : 'profiled')) return;
          server.off('message', on);
          resolve();
        };
        server.on('message', on);
        server.send(m);
      });
    const api = `http://127.0.0.1:${ports.api}`;
    const bareUrl = `http://127.0.0.1:${ports.bare}/bare`;
    const body = JSON.stringify({ token });
    const json = { 'Content-Type': 'application/json' };
    // As a browser asks for a page (compressed, inside the school's page).
    const pageHeaders = { Accept: 'text/html', 'Accept-Encoding': 'br, gzip', 'Sec-Fetch-Dest': 'iframe' };
    const viewerQuery = new URLSearchParams({
      model: urlModelName,
      subscription: token,
      currentmode: 'embedding',
      version: '1',
    });

    // Warm up both (connections, prepared statements, script cache). No viewer load: no view.
    for (let i = 0; i < 20; i += 1) {
      await (await fetch(bareUrl, { method: 'POST', headers: json, body })).arrayBuffer();
      if (FLOW === 'page')
        await (await fetch(`${api}/embed/${token}`, { headers: pageHeaders })).arrayBuffer();
      else
        await (
          await fetch(`${api}/api/model/embed/detail`, { method: 'POST', headers: json, body })
        ).arrayBuffer();
    }

    console.log(
      `Helix embed path benchmark (${FLOW === 'page' ? 'page drawn by the server + the viewer call' : 'before issue 30: detail call + viewer call'}): ` +
        `${CONCURRENCY} concurrent connections, ${SLICES} interleaved pairs of ${SLICE_SECONDS} s slices, ` +
        `Node ${process.version}, ${machineLoad()}`,
    );
    const bare = newStats('bare Express POST /bare');
    const first = newStats(
      FLOW === 'page' ? '  GET /embed/{token} (the page)' : '  POST /api/model/embed/detail',
    );
    const viewer = newStats('  GET /api/viewer/model (1 view)');
    const both = newStats('embed page load');
    let loadsServed = 0;
    let loadsSent = 0;
    /** The server-minted viewers among the loads served: one view each (a reload counts nothing). */
    const viewersServed = new Set<string>();
    let lastKept: string | undefined;

    const bareStep = async () => {
      await timed(bare, () => fetch(bareUrl, { method: 'POST', headers: json, body }));
    };
    /** The page load's viewer token (the page's fresh one), or undefined when the page failed. */
    const pageStep = async (kept: string | undefined): Promise<string | undefined> => {
      if (FLOW === 'page') {
        const page = await timed(first, () => fetch(`${api}/embed/${token}`, { headers: pageHeaders }));
        return page.ok ? (frameOf(page.body)?.searchParams.get('viewer') ?? undefined) : undefined;
      }
      const d = await timed(first, () =>
        fetch(`${api}/api/model/embed/detail`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ token, viewer: kept }),
        }),
      );
      return d.ok ? (JSON.parse(d.body) as { viewer: string }).viewer : undefined;
    };
    const embedStep = async () => {
      const t = performance.now();
      loadsSent += 1;
      // Every fourth load is a reload by the previous viewer: it sends the token it kept.
      const kept = loadsSent % 4 === 0 ? lastKept : undefined;
      const fresh = await pageStep(kept);
      // A page that failed shows no frame: no viewer load.
      if (fresh) {
        const q = new URLSearchParams(viewerQuery);
        q.set('viewer', fresh);
        if (kept && FLOW === 'page') q.set('kept', kept);
        const v = await timed(viewer, () =>
          fetch(`${api}/api/viewer/model?${q.toString()}`, { headers: { Origin: VIEWER_ORIGIN } }),
        );
        // The token the load was counted under: the answer's (this flow), the detail's (before).
        const countedUnder = v.ok ? ((JSON.parse(v.body) as { viewer?: string }).viewer ?? fresh) : undefined;
        if (countedUnder) {
          loadsServed += 1;
          lastKept = countedUnder;
          viewersServed.add(peekViewerToken(countedUnder) ?? countedUnder);
        } else both.errors += 1;
      } else both.errors += 1;
      both.latencies.push(performance.now() - t);
      both.requests += 1;
    };

    const pairs: { bare: number; embed: number; ratio: number }[] = [];
    const bareCount = () => bare.requests;
    const loadCount = () => both.requests;
    // One unmeasured pair first, so both paths are compiled and connected before the first measured
    // one. Its views are counted like the others (viewersServed); its errors are kept for the check.
    await run(SLICE_SECONDS, bareStep, bareCount);
    await run(SLICE_SECONDS, embedStep, loadCount);
    const warmupErrors = first.errors + viewer.errors + both.errors;
    for (const stats of [bare, first, viewer, both]) {
      Object.assign(stats, { requests: 0, errors: 0, latencies: [], seconds: 0 });
    }
    let embedCpuMs = 0;
    let bareCpuMs = 0;
    for (let i = 0; i < SLICES; i += 1) {
      let bareRps = 0;
      let loadRps = 0;
      // Alternating order (bare first, then embed first, ...): a steady drift in load cancels out.
      for (const phase of i % 2 === 0 ? ['bare', 'embed'] : ['embed', 'bare']) {
        if (phase === 'bare') {
          const cpuBefore = await cpuNow();
          const slice = await run(SLICE_SECONDS, bareStep, bareCount);
          bareCpuMs += (await cpuNow()) - cpuBefore;
          bare.seconds += slice.seconds;
          bareRps = slice.rate;
        } else {
          await profiling('profile');
          const cpuBefore = await cpuNow();
          const slice = await run(SLICE_SECONDS, embedStep, loadCount);
          embedCpuMs += (await cpuNow()) - cpuBefore;
          await profiling('profiled');
          both.seconds += slice.seconds;
          loadRps = slice.rate;
        }
      }
      pairs.push({ bare: bareRps, embed: loadRps, ratio: loadRps / bareRps });
    }
    first.seconds = viewer.seconds = both.seconds;

    console.log('');
    report(bare);
    report(both);
    report(first);
    report(viewer);
    console.log('\nPer pair (embed page loads/s over bare requests/s):');
    console.table(
      pairs.map((p, i) => ({
        pair: i + 1,
        'bare req/s': Math.round(p.bare),
        'page loads/s': Math.round(p.embed),
        ratio: Number(p.ratio.toFixed(2)),
      })),
    );
    const r = spread(pairs.map((p) => p.ratio));
    const ratioOk = r.median >= MIN_RATIO;
    console.log(
      `Page loads per bare request: median ${r.median.toFixed(2)}x (min ${r.min.toFixed(2)}x, max ${r.max.toFixed(2)}x, ` +
        `interquartile ${r.q1.toFixed(2)}x-${r.q3.toFixed(2)}x) over ${pairs.length} interleaved pairs; ` +
        `${(both.requests / both.seconds).toFixed(0)} embed page loads/s (${machineLoad()}). ` +
        `Target >= ${MIN_RATIO}x: ${ratioOk ? 'PASS' : 'FAIL'}`,
    );
    const p99Ratio = p99(both) / p99(bare);
    const p99Ok = p99Ratio <= MAX_P99_RATIO;
    console.log(
      `p99 of a page load ${p99(both).toFixed(1)} ms, ${p99Ratio.toFixed(2)}x the bare p99 ${p99(bare).toFixed(1)} ms. ` +
        `Target <= ${MAX_P99_RATIO}x: ${p99Ok ? 'PASS' : 'FAIL'}`,
    );
    const cpuPerLoad = embedCpuMs / Math.max(1, both.requests);
    const cpuPerBare = bareCpuMs / Math.max(1, bare.requests);
    console.log(
      `API process CPU per page load: ${cpuPerLoad.toFixed(3)} ms ` +
        `(${embedCpuMs.toFixed(0)} ms over ${both.requests} loads); per bare request ${cpuPerBare.toFixed(3)} ms ` +
        `(${bareCpuMs.toFixed(0)} ms over ${bare.requests}): a page load costs ${(cpuPerLoad / cpuPerBare).toFixed(2)} bare requests ` +
        `(0.6x needs at most ${(1 / MIN_RATIO).toFixed(2)}).`,
    );

    // What the worker's flush-views job does, then count.
    if (profileDir) console.log(`CPU profiles of the server process's embed slices written to ${profileDir}`);
    server.kill('SIGTERM');
    child = undefined;
    const flushed = await flushViews({ db, redis, prefix }, { recover: true });
    const recorded = await recordedViews(db, fixture.modelId);
    const countOk =
      recorded === viewersServed.size && viewer.errors === 0 && first.errors === 0 && warmupErrors === 0;
    console.log(
      `\nViews (warm-up pair included): ${loadsSent} loads sent, ${loadsServed} served to ${viewersServed.size} distinct server-minted viewers, ` +
        `${recorded} recorded after the flush ` +
        `(${flushed.batches} batch(es) in the final flush). ${countOk ? 'PASS' : 'FAIL'}`,
    );
    failed = !(countOk && ratioOk && p99Ok);
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
    await rm(webRoot, { recursive: true, force: true });
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
