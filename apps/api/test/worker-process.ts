import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardChild } from '@helix/stack/services/orphan-guard';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const WORKER_MAIN = path.join(ROOT, 'apps/worker/src/main.ts');

/**
 * The real worker (apps/worker/src/main.ts) as a child process, as `npm start` runs it: for tests that
 * kill it in the middle of a batch, and for the bench. Resolves once it logged 'worker started'.
 * WORKER_NODE_ARGS adds node options (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
export async function startWorkerProcess(
  env: {
    DATABASE_URL: string;
    REDIS_URL: string;
    REDIS_PREFIX: string;
    SMTP_URL: string;
    PUBLIC_URL: string;
    /** Default: a temporary folder of its own; the API's folder when both must see the same files. */
    STORAGE_DIR?: string;
  } & Record<string, string>,
): Promise<{ child: ChildProcess; output: () => string; kill(signal?: NodeJS.Signals): Promise<void> }> {
  let output = '';
  // node itself (not the tsx launcher, which forks): SIGKILL must reach the worker.
  const extraArgs = process.env.WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...extraArgs, '--import', 'tsx', WORKER_MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      STORAGE_DIR: mkdtempSync(path.join(tmpdir(), 'helix-worker-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // It dies with the test process, even when that is killed (a stopped or failed run leaves nothing).
  guardChild(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A worker that never said it started must not outlive the test.
      child.kill('SIGKILL');
      reject(new Error(`worker did not start:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('worker started')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code}):\n${output}`));
    });
  });
  return {
    child,
    output: () => output,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
