import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const API_MAIN = path.join(ROOT, 'apps/api/src/main.ts');

export interface ApiProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Resolves when the process has exited (by itself, e.g. at a crash point, or killed). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The real API (apps/api/src/main.ts) as a child process, as `npm start` runs it: for fault cases that
 * kill it mid-request (HELIX_CRASH_AT). Resolves once it logged 'api listening'.
 */
export async function startApiProcess(env: Record<string, string> & { PORT: string }): Promise<ApiProcess> {
  let output = '';
  // node itself (not the tsx launcher, which forks): SIGKILL must reach the API.
  const child = spawn(process.execPath, ['--import', 'tsx', API_MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      STORAGE_DIR: mkdtempSync(path.join(tmpdir(), 'helix-api-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`api did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('api listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`api exited (${code}):\n${output}`));
    });
  });
  return {
    child,
    url: `http://127.0.0.1:${env.PORT}`,
    output: () => output,
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
