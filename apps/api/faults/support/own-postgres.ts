import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@helix/stack/services/net';
import { createDatabase } from '@helix/stack/test-db';
import { migrate } from '@helix/server/db/migrate';

const run = promisify(execFile);
const BIN = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

export interface OwnPostgres {
  /** The migrated database `helix` on this server. */
  url: string;
  port: number;
  /** Fast shutdown (clients disconnected at once); connections are refused until start(). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data folder. */
  start(): Promise<void>;
  /** Stops it (immediate) and removes its folder. */
  destroy(): Promise<void>;
}

/** pg_ctl as the postgres user (PostgreSQL refuses to run as root). */
const pgCtl = (...args: string[]) =>
  run('runuser', ['-u', 'postgres', '--', path.join(BIN, 'pg_ctl'), ...args], { timeout: 60_000 });

/**
 * A PostgreSQL 15 server of the fault case's own (Debian's binaries, run as the postgres user), in a
 * temp folder on a free port, with a migrated database `helix`: the case may stop and start it, never
 * the machine's shared 127.0.0.1:5432. fsync is off: it is thrown away afterwards.
 */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'helix-fault-pg-'));
  const { uid, gid } = await postgresUser();
  chownSync(dir, uid, gid);
  const data = path.join(dir, 'data');
  const port = await freePort();
  await run(
    'runuser',
    [
      '-u',
      'postgres',
      '--',
      path.join(BIN, 'initdb'),
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
    ],
    { timeout: 60_000 },
  );
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const start = async () => {
    await pgCtl('start', '-D', data, '-w', '-t', '30', '-l', path.join(dir, 'log'), '-o', options);
  };
  const stop = async () => {
    await pgCtl('stop', '-D', data, '-m', 'fast', '-w', '-t', '30');
  };
  await start();
  const url = await createDatabase('helix', `postgresql://postgres@127.0.0.1:${port}/postgres`);
  await migrate(url);
  return {
    url,
    port,
    stop,
    start,
    async destroy() {
      await pgCtl('stop', '-D', data, '-m', 'immediate', '-w', '-t', '30').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
    run('id', ['-u', 'postgres']),
    run('id', ['-g', 'postgres']),
  ]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}
