import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedSchema, writeMigration } from './migration-writer.ts';
import { diffSchemas } from './schema-diff.ts';

const V1 = `datasource db {
  provider = "postgresql"
}

model Note {
  id   Int    @id @default(autoincrement())
  text String
}
`;
const V2 = V1.replace('  text String\n', '  text String\n  pinned Boolean @default(false)\n');

describe('the migration writer (npm run db:migration)', () => {
  let root: string;
  let prismaDir: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.test', ...args]);
  const migrationDirs = () =>
    readdirSync(path.join(prismaDir, 'migrations'), { withFileTypes: true }).filter((d) => d.isDirectory());

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'helix-writer-'));
    prismaDir = path.join(root, 'prisma');
    mkdirSync(path.join(prismaDir, 'migrations', '20260101000000_init'), { recursive: true });
    writeFileSync(path.join(prismaDir, 'schema.prisma'), V1);
    writeFileSync(
      path.join(prismaDir, 'migrations', '20260101000000_init', 'migration.sql'),
      await diffSchemas(null, V1),
    );
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'init');
  }, 600_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes nothing when schema.prisma and the migrations agree', async () => {
    expect(await writeMigration('nothing', { prismaDir })).toBeNull();
    expect(migrationDirs()).toHaveLength(1);
  }, 600_000);

  it('finds what the migrations build in git history and writes the SQL of the change', async () => {
    // The schema change is committed before its migration is written: the working copy no longer
    // tells what the migrations build, git's earlier version does.
    writeFileSync(path.join(prismaDir, 'schema.prisma'), V2);
    git('commit', '-q', '-am', 'pinned notes');
    expect(await migratedSchema({ prismaDir })).toBe(V1);
    const written = await writeMigration('pinned', { prismaDir }, new Date('2026-02-03T04:05:06Z'));
    expect(written?.dir).toBe(path.join(prismaDir, 'migrations', '20260203040506_pinned'));
    expect(written?.sql).toMatch(/ALTER TABLE "Note" ADD COLUMN\s+"pinned" BOOLEAN NOT NULL DEFAULT false;/);
    expect(written?.sql).not.toMatch(/CREATE TABLE/);
    expect(readFileSync(path.join(written!.dir, 'migration.sql'), 'utf8')).toBe(written!.sql);
    // With it, the migrations build the current schema: nothing more to write.
    expect(await migratedSchema({ prismaDir })).toBe(V2);
    expect(await writeMigration('again', { prismaDir })).toBeNull();
    expect(migrationDirs()).toHaveLength(2);
  }, 600_000);
});
