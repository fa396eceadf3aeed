import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@helix/stack/services/net';
import { guardChild } from '@helix/stack/services/orphan-guard';
import { createHarness } from '../test/harness.ts';
import { startWorkerProcess } from '../test/worker-process.ts';
import { startApiProcess } from './support/api-process.ts';

/**
 * A test run SIGKILLed in the middle of a fault case leaves nothing running (issue 29, point 7): the
 * case below runs this file again in a vitest of its own, whose case starts an API and a worker process
 * the way the fault cases do, then waits; that vitest is SIGKILLed (no hook, no teardown runs). Its test
 * worker notices (packages/stack/src/testing/exit-with-runner.ts) and ends, and the API and the worker
 * end with it (orphan-guard.ts): none is left with parent 1.
 */
const FIXTURE = process.env.HELIX_KILLED_RUN_PIDS;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const VITEST = path.join(
  path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);

/** Running, and not a zombie. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe.runIf(FIXTURE)('the run that is killed', () => {
  it('starts an API and a worker, then waits', { timeout: 600_000 }, async () => {
    const h = await createHarness();
    const env = {
      DATABASE_URL: h.config.DATABASE_URL,
      REDIS_URL: h.config.REDIS_URL,
      REDIS_PREFIX: h.config.REDIS_PREFIX,
      SMTP_URL: 'smtp://127.0.0.1:9',
      PUBLIC_URL: 'http://portal.test',
    };
    const [api, worker] = await Promise.all([startApiProcess(env), startWorkerProcess(env)]);
    writeFileSync(
      FIXTURE!,
      JSON.stringify({ worker: process.pid, children: [api.child.pid, worker.child.pid] }),
    );
    await new Promise(() => {}); // until killed
  });
});

describe.skipIf(FIXTURE)('a test run SIGKILLed during a fault case', () => {
  it('leaves none of its processes running', { timeout: 240_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'helix-killed-run-'));
    const pidsFile = path.join(dir, 'pids.json');
    try {
      let output = '';
      const run = spawn(
        process.execPath,
        [VITEST, 'run', '-c', 'packages/config/vitest.faults.config.ts', fileURLToPath(import.meta.url)],
        {
          cwd: ROOT,
          env: {
            ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST'))),
            HELIX_KILLED_RUN_PIDS: pidsFile,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      guardChild(run); // should this case fail, its run does not outlive it either
      run.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      run.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const exited = new Promise((resolve) => run.once('exit', resolve));
      const gone = new AbortController();
      void exited.then(() => gone.abort());
      await waitFor('the killed run to start its API and worker', async () => existsSync(pidsFile), {
        timeoutMs: 180_000,
        intervalMs: 250,
        signal: gone.signal,
      }).catch((error: unknown) => {
        throw new Error(`the run did not start its processes:\n${output}`, { cause: error });
      });
      const started = JSON.parse(readFileSync(pidsFile, 'utf8')) as { worker: number; children: number[] };
      const pids = [started.worker, ...started.children];
      expect(pids.every(alive)).toBe(true);

      run.kill('SIGKILL');
      await exited;
      const killedAt = performance.now();
      await waitFor('every process of the killed run gone', async () => !pids.some(alive), {
        timeoutMs: 10_000,
        intervalMs: 100,
      }).catch(() => {
        throw new Error(`left running: ${pids.filter(alive).join(', ')}`);
      });
      console.log(
        `vitest SIGKILLed: its test worker, API and worker processes gone after ${Math.round(performance.now() - killedAt)} ms`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
