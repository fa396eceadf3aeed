/**
 * `npm run db:seed [-- --no-demo]`: seeds DATABASE_URL (prisma/seed.ts; compiled to
 * packages/stack/dist-node/db-seed.js for a deployment).
 */
import { seed } from '../../../prisma/seed.ts';
import { loadDotEnv } from './paths.ts';

loadDotEnv();
const url = process.env.DATABASE_URL;
if (!url) {
  console.error(
    'DATABASE_URL is not set. (`npm start` finds or starts a database by itself; db:seed needs one.)',
  );
  process.exit(2);
}
console.log(`seed: ${await seed(url, { demo: !process.argv.includes('--no-demo') })}`);
