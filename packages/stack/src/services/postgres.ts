import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEFAULT_DATA_DIR } from '../paths.ts';
import { freePort, portAnswers } from './net.ts';
import { ManagedChild, tsxArgs } from './process.ts';
import { displayPath, noStop, redact, type Service, type ServiceOptions } from './types.ts';

export interface PostgresOptions extends ServiceOptions {
  /** Use this database (default: the DATABASE_URL environment variable). */
  databaseUrl?: string;
  /** Port probed on 127.0.0.1 (default: HELIX_PG_PORT or 5432). */
  probePort?: number;
  /** Skip the 127.0.0.1 probe and go straight to the embedded server. */
  probe?: boolean;
  /** Database created on a local server (default: helix). */
  databaseName?: string;
  /** Maximum connections the embedded server accepts (default 20: the API's and the worker's pools). */
  maxConnections?: number;
}

const PGLITE_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pglite-server.ts');

/**
 * PostgreSQL, in this order: DATABASE_URL; a server on 127.0.0.1:5432 (the project's database is created
 * there if missing); an embedded PGlite server with its data under .data/pglite.
 */
export async function resolvePostgres(options: PostgresOptions = {}): Promise<Service> {
  const log = options.log ?? (() => {});
  const given = options.databaseUrl ?? process.env.DATABASE_URL;
  if (given) {
    await ensureDatabase(given);
    return {
      url: given,
      kind: 'external',
      description: `PostgreSQL from DATABASE_URL (${redact(given)})`,
      stop: noStop,
    };
  }

  const port = options.probePort ?? Number(process.env.HELIX_PG_PORT ?? 5432);
  const name = options.databaseName ?? 'helix';
  if (options.probe !== false && (await portAnswers(port))) {
    // Debian and Docker have a `postgres` superuser; Homebrew and Postgres.app the login user.
    const users = process.env.PGUSER
      ? [process.env.PGUSER]
      : [...new Set(['postgres', os.userInfo().username])];
    const failures: string[] = [];
    for (const user of users) {
      const url = `postgresql://${encodeURIComponent(user)}@127.0.0.1:${port}/${name}`;
      try {
        await ensureDatabase(url);
        return {
          url,
          kind: 'local',
          description: `PostgreSQL on 127.0.0.1:${port}, database ${name} (user ${user})`,
          stop: noStop,
        };
      } catch (error) {
        failures.push(`as ${user}: ${(error as Error).message}`);
      }
    }
    log(
      `something answers on 127.0.0.1:${port} but the stack cannot use it (${failures.join('; ')}); ` +
        'set DATABASE_URL to use it. Falling back to the embedded PGlite server.',
    );
  }
  return startPglite(options);
}

/** Starts the embedded PGlite server as a child process on a free port. */
export async function startPglite(options: PostgresOptions = {}): Promise<Service> {
  const dataDir = path.join(options.dataDir ?? DEFAULT_DATA_DIR, 'pglite');
  const port = await freePort();
  const { command, args } = tsxArgs(
    PGLITE_SERVER,
    dataDir,
    String(port),
    String(options.maxConnections ?? 20),
  );
  const child = new ManagedChild({ name: 'pglite', command, args, quiet: options.quiet });
  try {
    await child.waitForLine(/^PGLITE_READY\b/, 120_000);
  } catch (error) {
    await child.stop(2000);
    throw new Error(`the embedded PostgreSQL (PGlite) did not start: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`,
    kind: 'embedded',
    description: `embedded PostgreSQL (PGlite) on 127.0.0.1:${port}, data in ${displayPath(dataDir)}`,
    stop: async () => {
      await child.stop(15_000);
    },
  };
}

/** Connects to `url`; when its database does not exist yet, creates it through the server's `postgres` database. */
export async function ensureDatabase(url: string): Promise<void> {
  try {
    await ping(url);
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    if ((error as { code?: string }).code !== '42P04') throw error; // created meanwhile
  } finally {
    await client.end();
  }
}

async function ping(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('SELECT 1');
  } finally {
    await client.end();
  }
}
