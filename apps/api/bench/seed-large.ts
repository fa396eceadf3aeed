/**
 * `npm run seed:large` (docs/lists-at-scale.md): drops and rebuilds the benchmark database
 * (LARGE_DATABASE_NAME, default helix_large; never the app's own) with 10,000 tenants, 100,000 users
 * (10 per tenant) and 1,000,000 view-days over 20 models, made by generate_series inside PostgreSQL.
 * Resettable: every run starts from an empty database.
 */
import pg from 'pg';
import { migrate } from '@helix/stack/migrate';
import { createDatabase, dropDatabase } from '@helix/stack/test-db';

const name = process.env.LARGE_DATABASE_NAME ?? 'helix_large';
if (!/^helix_large\w*$/.test(name)) throw new Error('LARGE_DATABASE_NAME must start with helix_large');

const started = Date.now();
const step = (what: string) => console.log(`${((Date.now() - started) / 1000).toFixed(1)} s  ${what}`);

await dropDatabase(name);
const url = await createDatabase(name);
await migrate(url);
step(`migrated ${name}`);
const client = new pg.Client({ connectionString: url });
await client.connect();
const run = async (what: string, sql: string) => {
  await client.query(sql);
  step(what);
};
await run(
  '10,000 tenants',
  `INSERT INTO "Tenant" ("domainPrefix", name, "updatedAt")
   SELECT 'school' || g, 'School ' || g || ' ' || md5(g::text), now() FROM generate_series(1, 10000) g`,
);
await run(
  '100,000 users',
  `INSERT INTO "User" ("tenantId", name, "userName", email, "isOwner", "createdAt", "updatedAt")
   SELECT t.id, 'Pupil ' || g || ' ' || substr(md5(g::text), 1, 8), 'pupil' || g, 'pupil' || g || '@school' || t.id || '.test',
          g % 10 = 1, now() - (g || ' minutes')::interval, now()
   FROM generate_series(1, 100000) g JOIN "Tenant" t ON t."domainPrefix" = 'school' || ((g - 1) / 10 + 1)`,
);
await run(
  '20 models',
  `INSERT INTO "Model" (name, "urlModelName", "updatedAt")
   SELECT 'Model ' || g, 'model-' || g, now() FROM generate_series(1, 20) g`,
);
await run(
  '1,000,000 view-days',
  `INSERT INTO "ModelViewDaily" ("modelId", "tenantId", day, source, "viewerKey", "userId", count)
   SELECT m.id, u."tenantId", current_date - ((i * 37 + u.id) % 365), 'portal', 'u:' || u.id, u.id, 1 + (u.id * i) % 7
   FROM "User" u CROSS JOIN generate_series(0, 9) i
   JOIN "Model" m ON m."urlModelName" = 'model-' || (1 + (u.id + i) % 20)`,
);
await run('analyzed', 'ANALYZE');
await client.end();
console.log(`done: ${url}`);
