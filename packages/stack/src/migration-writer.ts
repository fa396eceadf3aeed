import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { migrate } from '@helix/server/db/migrate';
import { listMigrations } from '@helix/server/db/migration-files';
import { schemaCatalog } from './schema-catalog.ts';
import { diffSchemas, isEmptyMigration } from './schema-diff.ts';
import { ADMIN_DATABASE_URL, createDatabase, dropDatabase } from '@helix/server/testing/test-db';

/**
 * `npm run db:migration -- <name>` (new-migration.ts): the SQL from what the migrations build to the
 * current schema.prisma, with no copy of the schema beside the migrations. Prisma's schema engine
 * (WebAssembly, schema-engine.ts) diffs only schema files here (its introspection of a live database
 * fails through the pg driver adapter), so the writer finds the schema.prisma the migrations were
 * written from: it applies the migrations to a scratch database and takes the newest version of
 * schema.prisma (the working copy, then git's history) whose database is the same
 * (schema-catalog.ts). Then it diffs that version to the current one.
 */
export interface MigrationWriterOptions {
  /** prisma/: schema.prisma and migrations/ (inside a git repository). */
  prismaDir: string;
  /** The PostgreSQL server the scratch databases are made on. */
  adminUrl?: string;
  /** Older versions of schema.prisma looked at, newest first. */
  maxVersions?: number;
}

export type WrittenMigration = { dir: string; sql: string } | null;

const scratchName = (kind: string) => `helix_writer_${kind}_${randomBytes(4).toString('hex')}`;

/** A scratch database built by `build`, its catalogue read, then dropped. */
async function catalogOf(adminUrl: string, kind: string, build: (url: string) => Promise<unknown>) {
  const name = scratchName(kind);
  try {
    const url = await createDatabase(name, adminUrl);
    await build(url);
    return await schemaCatalog(url);
  } finally {
    await dropDatabase(name, adminUrl);
  }
}

async function applySql(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** schema.prisma as the working copy has it, then each version git holds, newest first. */
function* schemaVersions(prismaDir: string, max: number): Generator<string> {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', prismaDir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const seen = new Set<string>();
  const current = readFileSync(path.join(prismaDir, 'schema.prisma'), 'utf8');
  seen.add(current);
  yield current;
  const commits = git('log', `--max-count=${max}`, '--format=%H', '--', 'schema.prisma').split('\n');
  for (const commit of commits.filter(Boolean)) {
    const version = git('show', `${commit}:./schema.prisma`);
    if (seen.has(version)) continue;
    seen.add(version);
    yield version;
  }
}

/** The schema.prisma the migrations build (null: there are none), or an error saying none was found. */
export async function migratedSchema(opts: MigrationWriterOptions): Promise<string | null> {
  const adminUrl = opts.adminUrl ?? ADMIN_DATABASE_URL;
  const dir = path.join(opts.prismaDir, 'migrations');
  if (listMigrations(dir).length === 0) return null;
  const target = await catalogOf(adminUrl, 'mig', (url) => migrate(url, dir));
  for (const version of schemaVersions(opts.prismaDir, opts.maxVersions ?? 50)) {
    const built = await catalogOf(adminUrl, 'sch', async (url) =>
      applySql(url, await diffSchemas(null, version, adminUrl)),
    );
    if (isDeepStrictEqual(built, target)) return version;
  }
  throw new Error(
    'no version of schema.prisma (working copy or git history) builds the database the migrations build: ' +
      'was a migration edited by hand?',
  );
}

/**
 * Writes migrations/<timestamp>_<name>/migration.sql with the SQL from what the migrations build to the
 * current schema.prisma, or writes nothing (null) when they already agree.
 */
export async function writeMigration(
  name: string,
  opts: MigrationWriterOptions,
  now = new Date(),
): Promise<WrittenMigration> {
  const current = readFileSync(path.join(opts.prismaDir, 'schema.prisma'), 'utf8');
  const from = await migratedSchema(opts);
  const sql = from === current ? '' : await diffSchemas(from, current, opts.adminUrl ?? ADMIN_DATABASE_URL);
  if (isEmptyMigration(sql)) return null;
  const migrations = path.join(opts.prismaDir, 'migrations');
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const dir = path.join(migrations, `${stamp}_${name}`);
  if (existsSync(dir)) throw new Error(`${dir} exists`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'migration.sql'), sql);
  if (!existsSync(path.join(migrations, 'migration_lock.toml'))) {
    writeFileSync(path.join(migrations, 'migration_lock.toml'), 'provider = "postgresql"\n');
  }
  return { dir, sql };
}
