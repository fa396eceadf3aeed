import pg from 'pg';

/**
 * Objects only a migration can make (schema.prisma cannot express them), each written down where it
 * is made: the platform's name order's expression index (docs/lists-at-scale.md). The running view
 * totals' trigger functions are not in the catalogue below at all (tables, indexes, constraints, enums).
 */
const MIGRATION_ONLY = ['"User_lower_name_id_idx"', '"Tenant_lower_name_id_idx"'];

/**
 * What a database's schema is made of, independent of how it was built (column order aside): two
 * databases with the same catalogue are the same to schema.prisma.
 */
export async function schemaCatalog(url: string): Promise<string[]> {
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
