import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitFor } from '@helix/stack/services/net';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const API_MAIN = path.join(ROOT, 'apps/api/src/main.ts');

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed (its JSON log lines), from the start. */
  output(): string;
  /** Its log lines whose msg matches. */
  logLines(msg: RegExp): { msg: string; [key: string]: unknown }[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The real API (apps/api/src/main.ts) as a child process on a free port, as `npm start` runs it, with
 * its whole output kept (a fault case counts its log lines). Resolves once GET /api/health answers 200.
 */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const port = await freePort();
  let output = '';
  // node itself (not the tsx launcher, which forks): a signal must reach the API.
  const child = spawn(process.execPath, ['--import', 'tsx', API_MAIN], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = new AbortController();
  void exited.then(() => gone.abort());
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    'the API answering GET /api/health',
    async () => (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) })).ok,
    { timeoutMs: 60_000, intervalMs: 200, signal: gone.signal },
  ).catch((error: unknown) => {
    throw new Error(`the API did not start:\n${output}`, { cause: error });
  });
  return {
    url,
    child,
    output: () => output,
    logLines(msg) {
      return output
        .split('\n')
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as { msg: string }];
          } catch {
            return [];
          }
        })
        .filter((line) => typeof line.msg === 'string' && msg.test(line.msg));
    },
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
