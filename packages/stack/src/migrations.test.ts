import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { listMigrations, MIGRATIONS_DIR, SCHEMA_PATH } from './migration-files.ts';
import { migrate } from './migrate.ts';
import { diffSchemas } from './schema-diff.ts';
import { createDatabase, dropDatabase } from './test-db.ts';

/**
 * Objects only a migration can make (schema.prisma cannot express them), each written down where it
 * is made: the platform's name order's expression index (docs/lists-at-scale.md). The running view
 * totals' trigger functions are not in the catalogue below at all (tables, indexes, constraints, enums).
 */
const MIGRATION_ONLY = ['"User_lower_name_id_idx"', '"Tenant_lower_name_id_idx"'];

/** What a database's schema is made of, independent of how it was built (column order aside). */
async function catalog(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const queries = [
      `SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || udt_name || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS x
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
      `SELECT indexdef AS x FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
      `SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS x
         FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '_prisma_migrations'`,
      `SELECT t.typname || ' ' || string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) AS x
         FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid GROUP BY t.typname`,
    ];
    const out: string[] = [];
    for (const q of queries) out.push(...(await client.query<{ x: string }>(q)).rows.map((r) => r.x));
    return out.filter((x) => !MIGRATION_ONLY.some((name) => x.includes(name))).sort();
  } finally {
    await client.end();
  }
}

describe('schema.prisma and prisma/migrations', () => {
  const names: string[] = [];
  afterAll(async () => {
    for (const n of names) await dropDatabase(n);
  });

  it('the last migration snapshot is the current schema (run `npm run db:migration -- <name>`)', () => {
    const last = listMigrations().at(-1);
    expect(last, 'no migrations').toBeDefined();
    const snapshot = readFileSync(path.join(MIGRATIONS_DIR, last!.name, 'schema.prisma'), 'utf8');
    expect(snapshot).toBe(readFileSync(SCHEMA_PATH, 'utf8'));
  });

  it('a database built from the migrations equals one built from schema.prisma', async () => {
    const a = `helix_mig_${randomBytes(3).toString('hex')}`;
    const b = `helix_sch_${randomBytes(3).toString('hex')}`;
    names.push(a, b);
    const fromMigrations = await createDatabase(a);
    const fromSchema = await createDatabase(b);
    await migrate(fromMigrations);
    expect(await migrate(fromMigrations), 'a second run applies nothing').toEqual([]);
    const client = new pg.Client({ connectionString: fromSchema });
    await client.connect();
    await client.query(await diffSchemas(null, readFileSync(SCHEMA_PATH, 'utf8'), fromSchema));
    await client.end();
    expect(await catalog(fromMigrations)).toEqual(await catalog(fromSchema));
  }, 60_000);
});
