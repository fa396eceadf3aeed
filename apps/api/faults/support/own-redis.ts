import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, waitFor } from '@helix/stack/services/net';
import { ManagedChild } from '@helix/stack/services/process';
import { redisPing } from '@helix/stack/services/redis';

export interface OwnRedis {
  url: string;
  port: number;
  /** Stops the server (SIGTERM: it writes its AOF and exits); connections are refused until start(). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data folder (the AOF brings every key back). */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * A redis-server of the fault case's own (from PATH), on a free port with its data in a temp folder,
 * that the case may stop and start again: never the machine's shared 127.0.0.1:6379. AOF with an
 * fsync per write, so a stop loses nothing the API was told was written (as a production Redis
 * holding queues is configured).
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  const dir = mkdtempSync(path.join(tmpdir(), 'helix-fault-redis-'));
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'yes',
    '--appendfsync',
    'always',
    '--loglevel',
    'warning',
    '--daemonize',
    'no',
  ];
  let child: ManagedChild | undefined;
  const start = async () => {
    child = new ManagedChild({ name: `redis:${port}`, command: 'redis-server', args, quiet: true });
    const current = child;
    const exited = new AbortController();
    void current.exited.then(() => exited.abort());
    await waitFor(`redis-server on port ${port}`, () => redisPing(port), {
      timeoutMs: 20_000,
      intervalMs: 50,
      signal: exited.signal,
    }).catch((error: unknown) => {
      throw new Error(`redis-server did not start:\n${current.output()}`, { cause: error });
    });
  };
  const stop = async () => {
    await child?.stop(10_000);
    child = undefined;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
