import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, type Db } from '../db.ts';
import { migrate } from '../db/migrate.ts';
import { listMigrations } from '../db/migration-files.ts';

/**
 * An isolated, migrated database per test run: created on the server DATABASE_URL points at (or the
 * local 127.0.0.1:5432), dropped afterwards. It is copied from a template database migrated once per
 * set of migrations (`helix_tmpl_<hash>`), not migrated again per test file: a copy takes a fraction of
 * a second, migrating from empty over a second.
 */
export const ADMIN_DATABASE_URL =
  process.env.TEST_ADMIN_DATABASE_URL ??
  process.env.DATABASE_URL ??
  'postgresql://postgres@127.0.0.1:5432/postgres';

/**
 * A client for tests and the apps they start in-process: the 2 s wait for a pooled connection is a
 * production request's fail-fast (db.ts); a test's set-up, checks and in-process API wait up to 15 s,
 * so a loaded machine (two CI runs side by side) answering late fails no test.
 */
export const createTestDb = (connectionString: string): Db =>
  createDb(connectionString, { connectTimeoutMs: 15_000 });

export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createDatabase(name: string, admin = ADMIN_DATABASE_URL): Promise<string> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return databaseUrl(admin, name);
}

export async function dropDatabase(name: string, admin = ADMIN_DATABASE_URL): Promise<void> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(prefix = 'helix_test'): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const template = await migratedTemplate();
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    // Another session copying the same template at that instant: 55006 "being accessed by other users".
    for (let attempt = 1; ; attempt += 1) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  } finally {
    await client.end();
  }
  return { name, url: databaseUrl(ADMIN_DATABASE_URL, name) };
}

/** The migrations' identity: the template database of one set of migrations is never reused for another. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const m of listMigrations()) hash.update(`${m.name}:${m.checksum}\n`);
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<string> | null = null;

/**
 * `helix_tmpl_<hash>`, migrated once: built under an advisory lock on the admin database (test files
 * run in parallel processes, and other checkouts share the server), as `<name>_build` then renamed, so
 * a template that exists is always complete. Templates of older migrations are left for the server's
 * owner to drop (another checkout may still be using them).
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const name = `helix_tmpl_${migrationsHash()}`;
    const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
    await client.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (!rowCount) {
        const building = `${name}_build`;
        await migrate(await createDatabase(building));
        await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      }
      return name;
    } finally {
      await client.end(); // also releases the advisory lock
    }
  })();
  template.catch(() => (template = null));
  return template;
}
