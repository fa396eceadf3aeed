/**
 * `npm run db:migrate`: applies prisma/migrations to DATABASE_URL (the Procfile's release step).
 * The database itself is created first when the server has no database of that name yet.
 */
import { migrate } from '@helix/server/db/migrate';
import { loadDotEnv } from './paths.ts';
import { ensureDatabase } from './services/postgres.ts';

loadDotEnv();
const url = process.env.DATABASE_URL;
if (!url) {
  console.error(
    'DATABASE_URL is not set. (`npm start` finds or starts a database by itself; db:migrate needs one.)',
  );
  process.exit(2);
}
await ensureDatabase(url);
const applied = await migrate(url);
console.log(applied.length ? `applied: ${applied.join(', ')}` : 'no pending migrations');
