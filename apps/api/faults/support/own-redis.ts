import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@helix/stack/services/net';
import type { ManagedChild } from '@helix/stack/services/process';
import { spawnRedisServer } from '@helix/stack/services/redis';

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
 * A redis-server of the fault case's own (from PATH, started as the stack starts one), on a free port
 * with its data in a temp folder, that the case may stop and start again: never the machine's shared
 * 127.0.0.1:6379. AOF with an fsync per write, so a stop loses nothing the API was told was written
 * (as a production Redis holding queues is configured).
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  const dir = mkdtempSync(path.join(tmpdir(), 'helix-fault-redis-'));
  const port = await freePort();
  const persistence = ['--save', '', '--appendonly', 'yes', '--appendfsync', 'always'];
  let child: ManagedChild | undefined;
  const start = async () => {
    child = await spawnRedisServer({ port, dir, persistence, quiet: true });
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
