import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { DEFAULT_DATA_DIR } from '../paths.ts';
import { freePort, waitFor, which } from './net.ts';
import { ManagedChild } from './process.ts';
import { displayPath, noStop, redact, type Service, type ServiceOptions } from './types.ts';

export interface RedisOptions extends ServiceOptions {
  /** Use this Redis (default: the REDIS_URL environment variable). */
  redisUrl?: string;
  /** Port probed on 127.0.0.1 (default: HELIX_REDIS_PORT or 6379). */
  probePort?: number;
  /** Skip the 127.0.0.1 probe. */
  probe?: boolean;
  /** The redis-server executable (default: `redis-server` on PATH). */
  redisServer?: string | null;
}

export class MissingServiceError extends Error {}

/**
 * Redis, in this order: REDIS_URL; a server on 127.0.0.1:6379; Debian's `redis-server` started as a
 * child with its data under .data/redis; otherwise an error naming what to do.
 */
export async function resolveRedis(options: RedisOptions = {}): Promise<Service> {
  const given = options.redisUrl ?? process.env.REDIS_URL;
  if (given)
    return {
      url: given,
      kind: 'external',
      description: `Redis from REDIS_URL (${redact(given)})`,
      stop: noStop,
    };

  const port = options.probePort ?? Number(process.env.HELIX_REDIS_PORT ?? 6379);
  if (options.probe !== false && (await redisPing(port))) {
    return {
      url: `redis://127.0.0.1:${port}`,
      kind: 'local',
      description: `Redis on 127.0.0.1:${port}`,
      stop: noStop,
    };
  }

  const executable = options.redisServer === undefined ? which('redis-server') : options.redisServer;
  if (!executable) {
    throw new MissingServiceError(
      `Redis is missing: REDIS_URL is not set, nothing answers on 127.0.0.1:${port} and redis-server is not installed.\n` +
        'Start the services with `docker compose up -d` (PostgreSQL, Redis and a mail catcher), ' +
        'or install Redis (Debian/Ubuntu: `sudo apt-get install -y redis-server`), or set REDIS_URL.',
    );
  }
  return startRedisServer(executable, options);
}

/** Starts `redis-server` as a child on a free port with its data (RDB + AOF) in .data/redis. */
export async function startRedisServer(executable: string, options: ServiceOptions = {}): Promise<Service> {
  const dir = path.join(options.dataDir ?? DEFAULT_DATA_DIR, 'redis');
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  // BullMQ wants maxmemory-policy noeviction (the default).
  const child = await spawnRedisServer({
    executable,
    name: 'redis',
    port,
    dir,
    persistence: ['--save', '60', '1', '--appendonly', 'yes'],
    quiet: options.quiet,
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    kind: 'embedded',
    description: `redis-server on 127.0.0.1:${port} (started by the stack), data in ${displayPath(dir)}`,
    stop: async () => {
      await child.stop(10_000);
    },
  };
}

/**
 * `redis-server` as a child in the foreground on 127.0.0.1:`port` with its data in `dir` and the given
 * persistence flags; resolves once it answers PING. Stopped again (its output in the error) when it
 * exits or does not answer within 20 s.
 */
export async function spawnRedisServer(spec: {
  port: number;
  dir: string;
  persistence: string[];
  executable?: string;
  name?: string;
  quiet?: boolean;
}): Promise<ManagedChild> {
  const { port } = spec;
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--loglevel',
    'warning',
    '--dir',
    spec.dir,
    ...spec.persistence,
    '--daemonize',
    'no',
  ];
  const child = new ManagedChild({
    name: spec.name ?? `redis:${port}`,
    command: spec.executable ?? 'redis-server',
    args,
    quiet: spec.quiet,
  });
  const abort = new AbortController();
  void child.exited.then(() => abort.abort());
  try {
    await waitFor(`redis-server on port ${port}`, () => redisPing(port), {
      timeoutMs: 20_000,
      intervalMs: 50,
      signal: abort.signal,
    });
  } catch (error) {
    await child.stop(2000);
    throw new Error(`redis-server did not start:\n${child.output()}`, { cause: error });
  }
  return child;
}

/** True when a Redis on 127.0.0.1:port answers PING with PONG (no client library needed). */
export function redisPing(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}
