import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_PATH } from '@helix/server/db/migration-files';
import { migrate } from '@helix/server/db/migrate';
import { schemaCatalog } from './schema-catalog.ts';
import { diffSchemas } from './schema-diff.ts';
import { createDatabase, dropDatabase } from '@helix/server/testing/test-db';

describe('schema.prisma and prisma/migrations', () => {
  const names: string[] = [];
  afterAll(async () => {
    for (const n of names) await dropDatabase(n);
  });

  it('a database built from the migrations equals one built from schema.prisma (else `npm run db:migration -- <name>`)', async () => {
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
    expect(await schemaCatalog(fromMigrations)).toEqual(await schemaCatalog(fromSchema));
  }, 600_000);
});
