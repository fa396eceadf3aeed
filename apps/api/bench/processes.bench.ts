/**
 * `npm run bench:processes`: startup time and memory of each production process, the compiled build
 * (`node <app>/dist-node/*.js`, what the Procfile runs) beside the TypeScript sources through tsx (what
 * `npm start` runs in development). Needs `npm run build` first, PostgreSQL and Redis.
 *
 * Startup = from spawning the process to its first answer: the API's GET /api/health 200, the viewer's
 * first HTTP answer, the worker's "worker started" log line. Memory = resident set size (VmRSS) after
 * 5 s idle. Median of BENCH_RUNS (default 3) starts each, one process at a time, NODE_ENV=production.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COMPILED_ENTRIES, processCommand } from '@helix/stack/stack';
import { ROOT } from '@helix/stack/paths';
import { freePort } from '@helix/stack/services/net';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';

type Name = keyof typeof COMPILED_ENTRIES;
const SOURCES: Record<Name, string> = {
  api: path.join(ROOT, 'apps/api/src/main.ts'),
  worker: path.join(ROOT, 'apps/worker/src/main.ts'),
  viewer: path.join(ROOT, 'apps/viewer/src/serve.ts'),
};
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const IDLE_MS = 5000;

for (const file of Object.values(COMPILED_ENTRIES)) {
  if (!existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: run npm run build first`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) / 1024 : NaN;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function answers(url: string, ok: (status: number) => boolean): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return ok(response.status);
  } catch {
    return false;
  }
}

async function measure(name: Name, file: string, env: Record<string, string>) {
  const port = await freePort();
  const { command, args } = processCommand(file);
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    // The worker's readiness is its "worker started" line (info).
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      VIEWER_PORT: String(port),
      ...(name === 'worker' ? { LOG_LEVEL: 'info' } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const ready = async () => {
    if (name === 'worker') return output.includes('worker started');
    if (name === 'api') return answers(`http://127.0.0.1:${port}/api/health`, (s) => s === 200);
    return answers(`http://127.0.0.1:${port}/`, () => true);
  };
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name} exited during startup:\n${output}`);
      if (await ready()) break;
      if (performance.now() - started > 120_000) throw new Error(`${name} did not start:\n${output}`);
      await sleep(20);
    }
    const startupMs = performance.now() - started;
    await sleep(IDLE_MS);
    return { startupMs, rss: rssMb(child.pid!) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000).then(() => child.kill('SIGKILL'))]);
  }
}

const db = await createTestDatabase('helix_bench_processes');
const storage = mkdtempSync(path.join(os.tmpdir(), 'helix-bench-processes-'));
try {
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: db.url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `helix-bench-${randomBytes(3).toString('hex')}`,
    SIGNING_SECRET: randomBytes(32).toString('hex'),
    SMTP_URL: 'smtp://127.0.0.1:2525',
    PUBLIC_URL: 'http://localhost:3000',
    VIEWER_URL: 'http://localhost:3001',
    STORAGE_DIR: storage,
    WEB_DIST_DIR: path.join(ROOT, 'apps/web/dist'),
  };
  const rows: string[] = [];
  for (const name of ['api', 'worker', 'viewer'] as const) {
    for (const [mode, file] of [
      ['compiled (node dist-node)', COMPILED_ENTRIES[name]],
      ['sources (node --import tsx)', SOURCES[name]],
    ] as const) {
      const runs = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await measure(name, file, env));
      const startup = median(runs.map((r) => r.startupMs));
      const rss = median(runs.map((r) => r.rss));
      rows.push(
        `| ${name.padEnd(6)} | ${mode.padEnd(27)} | ${Math.round(startup).toLocaleString('en')} ms | ${rss.toFixed(0)} MB |`,
      );
      console.log(rows.at(-1));
    }
  }
  const [load1] = os.loadavg();
  console.log(
    `\nload average at the end: ${load1!.toFixed(1)} on ${os.cpus().length} cores; median of ${RUNS} starts each`,
  );
  console.log('| process | run as | startup (to first answer) | RSS after 5 s idle |');
  console.log('| ------- | ------ | ------------------------- | ------------------ |');
  for (const row of rows) console.log(row);
} finally {
  await dropDatabase(db.name).catch(() => {});
  rmSync(storage, { recursive: true, force: true });
}
