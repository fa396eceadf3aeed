import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from './migrate.ts';

/**
 * An isolated, migrated database per test run: created on the server DATABASE_URL points at (or the
 * local 127.0.0.1:5432), dropped afterwards.
 */
export const ADMIN_DATABASE_URL =
  process.env.TEST_ADMIN_DATABASE_URL ??
  process.env.DATABASE_URL ??
  'postgresql://postgres@127.0.0.1:5432/postgres';

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
  const url = await createDatabase(name);
  await migrate(url);
  return { name, url };
}
