import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { listMigrations, MIGRATIONS_DIR, SCHEMA_PATH } from './migration-files.ts';
import { diffSchemas, isEmptyMigration } from './schema-diff.ts';

/**
 * `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql with the
 * SQL from the last migration's schema snapshot to the current schema.prisma, and stores the new
 * snapshot beside it (schema.prisma), which the next migration diffs from.
 */
const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]/gi, '_').toLowerCase();
if (!name) {
  console.error('usage: npm run db:migration -- <name>');
  process.exit(2);
}
const migrations = listMigrations();
const last = migrations.at(-1);
const previous = last ? readFileSync(path.join(MIGRATIONS_DIR, last.name, 'schema.prisma'), 'utf8') : null;
const current = readFileSync(SCHEMA_PATH, 'utf8');
const sql = await diffSchemas(previous, current);
if (isEmptyMigration(sql)) {
  console.log('schema.prisma and the migrations already agree: nothing to write.');
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
if (existsSync(dir)) throw new Error(`${dir} exists`);
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'migration.sql'), sql);
writeFileSync(path.join(dir, 'schema.prisma'), current);
if (!existsSync(path.join(MIGRATIONS_DIR, 'migration_lock.toml'))) {
  writeFileSync(path.join(MIGRATIONS_DIR, 'migration_lock.toml'), 'provider = "postgresql"\n');
}
console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
