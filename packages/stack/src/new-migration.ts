import path from 'node:path';
import { PRISMA_DIR } from '@helix/server/db/migration-files';
import { writeMigration } from './migration-writer.ts';

/**
 * `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql with the
 * SQL from what the migrations build to the current schema.prisma (migration-writer.ts).
 */
const name = (process.argv[2] ?? '').replace(/[^a-z0-9_]/gi, '_').toLowerCase();
if (!name) {
  console.error('usage: npm run db:migration -- <name>');
  process.exit(2);
}
const written = await writeMigration(name, { prismaDir: PRISMA_DIR });
if (!written) {
  console.log('schema.prisma and the migrations already agree: nothing to write.');
} else {
  console.log(`wrote ${path.relative(process.cwd(), written.dir)}/migration.sql`);
}
