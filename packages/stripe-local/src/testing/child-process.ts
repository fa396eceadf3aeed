import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');

export interface StripeLocalProcess {
  child: ChildProcess;
  url: string;
  port: number;
  secretKey: string;
  /** Milliseconds from spawn to "listening" (load + replay + compaction included). */
  startMs: number;
  /** The SDK against this process; no retries, so a kill shows as a failed call. */
  stripe: Stripe;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a clean stop), resolved once it exited. */
  stop(): Promise<void>;
}

/**
 * stripe-local as its own process (`node --import tsx src/main.ts`), keeping its state in `snapshotFile`,
 * so tests can SIGKILL it as an operator's machine would. `port` 0 picks a free one (read back from its
 * "listening on" line); pass the previous port to restart at the same address.
 */
export async function spawnStripeLocal(options: {
  snapshotFile: string;
  port?: number;
  env?: Record<string, string>;
}): Promise<StripeLocalProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      STRIPE_LOCAL_PORT: String(options.port ?? 0),
      STRIPE_LOCAL_SNAPSHOT: options.snapshotFile,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stripe-local did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`stripe-local exited (${code}) before listening:\n${output}`));
    });
  });
  const secretKey = /STRIPE_SECRET_KEY=(\S+)/.exec(output)?.[1] ?? '';
  const port = Number(new URL(url).port);
  return {
    child,
    url,
    port,
    secretKey,
    startMs: Math.round(performance.now() - started),
    stripe: new Stripe(secretKey, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 }),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
