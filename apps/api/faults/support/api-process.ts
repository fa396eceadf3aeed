import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardChild } from '@helix/stack/services/orphan-guard';
import { waitFor } from '@helix/stack/services/net';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const API_MAIN = path.join(ROOT, 'apps/api/src/main.ts');

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed (its JSON log lines), from the start. */
  output(): string;
  /** Its log lines whose msg matches. */
  logLines(msg: RegExp): { msg: string; [key: string]: unknown }[];
  /** Resolves when the process has exited (by itself, e.g. at a crash point, or killed). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM unless told otherwise; resolves once it has exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The real API (apps/api/src/main.ts) as a child process, as `npm start` runs it, with its whole output
 * kept (a fault case counts its log lines, or kills it mid-request with HELIX_CRASH_AT). On `env.PORT`
 * (a restart keeps its address), else on a port it binds itself (PORT=0) and names in its
 * "api listening" line; a storage folder of its own unless `env.STORAGE_DIR`. Resolves once that line
 * came from this child (it holds the port: nothing else answers there) and GET /api/health answers 200.
 *
 * Not a port picked free beforehand: the API binds seconds after it starts, and meanwhile any process
 * beside it binding port 0 (the unit and browser tests start Helix apps that way) could take that port;
 * a health check alone then takes the other app for ours, while ours dies with EADDRINUSE.
 */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  if (/^(warn|error|fatal|silent)$/.test(env.LOG_LEVEL ?? '')) {
    throw new Error('startApiProcess reads the "api listening" line: LOG_LEVEL must show info lines');
  }
  let output = '';
  // node itself (not the tsx launcher, which forks): a signal must reach the API.
  const child = spawn(process.execPath, ['--import', 'tsx', API_MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      STORAGE_DIR: mkdtempSync(path.join(tmpdir(), 'helix-api-')),
      ...env,
      PORT: env.PORT ?? '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // It dies with the test process, even when that is killed (a stopped or failed run leaves nothing).
  guardChild(child);
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const gone = new AbortController();
  void exited.then(() => gone.abort());
  const listening = () => {
    for (const line of output.split('\n')) {
      if (!line.includes('"api listening"')) continue;
      try {
        const port = (JSON.parse(line) as { port?: unknown }).port;
        if (typeof port === 'number' && port > 0) return port;
      } catch {
        // a partial line: read again on the next poll
      }
    }
    return undefined;
  };
  let url = '';
  await waitFor(
    'the API saying "api listening" and answering GET /api/health',
    async () => {
      const port = listening();
      if (port === undefined) return false;
      url = `http://127.0.0.1:${port}`;
      return (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) })).ok;
    },
    { timeoutMs: 60_000, intervalMs: 200, signal: gone.signal },
  ).catch((error: unknown) => {
    child.kill('SIGKILL');
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
    exited,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
