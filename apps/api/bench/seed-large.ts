/**
 * `npm run seed:large` (docs/lists-at-scale.md): drops and rebuilds the benchmark database
 * (LARGE_DATABASE_NAME, default helix_large; never the app's own) with 10,000 tenants, 100,000 users
 * (10 per tenant) and 1,000,000 view-days over 20 models, made by generate_series inside PostgreSQL,
 * plus, in proportion, what the other lists show: 50,000 newsletter subscribers, 20,000 support
 * requests, and in the demo school (the seed's demo accounts are there, so the benchmark signs in
 * as they do) 2,000 more users and 5,000 share and embed links. Resettable: every run starts from an
 * empty database.
 */
import pg from 'pg';
import { migrate } from '@helix/server/db/migrate';
import { createDatabase, dropDatabase } from '@helix/stack/test-db';
import { seed } from '../../../prisma/seed.ts';

const name = process.env.LARGE_DATABASE_NAME ?? 'helix_large';
if (!/^helix_large\w*$/.test(name)) throw new Error('LARGE_DATABASE_NAME must start with helix_large');

const started = Date.now();
const step = (what: string) => console.log(`${((Date.now() - started) / 1000).toFixed(1)} s  ${what}`);

await dropDatabase(name);
const url = await createDatabase(name);
await migrate(url);
step(`migrated ${name}`);
await seed(url);
step('demo accounts, plans and permissions (the app seed)');
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
// The users' running totals (User.viewTotal) are filled once after the bulk insert, as the migration
// backfills them, instead of by the per-statement trigger over a million rows. The models' totals
// (Model.viewTotal) stay with their trigger: one grouped pass over the statement's rows, 20 models.
await run(
  'view total trigger paused',
  `ALTER TABLE "ModelViewDaily" DISABLE TRIGGER "ModelViewDaily_user_view_total_insert"`,
);
await run(
  '1,000,000 view-days',
  `INSERT INTO "ModelViewDaily" ("modelId", "tenantId", day, source, "viewerKey", "userId", count)
   SELECT m.id, u."tenantId", current_date - ((i * 37 + u.id) % 365), 'portal', 'u:' || u.id, u.id, 1 + (u.id * i) % 7
   FROM "User" u CROSS JOIN generate_series(0, 9) i
   JOIN "Model" m ON m."urlModelName" = 'model-' || (1 + (u.id + i) % 20)`,
);
await run(
  "users' running view totals",
  `UPDATE "User" u SET "viewTotal" = s.views
   FROM (SELECT v."userId", SUM(v.count)::int AS views FROM "ModelViewDaily" v
         JOIN "Model" m ON m.id = v."modelId" AND m."deletedAt" IS NULL
         WHERE v."userId" IS NOT NULL GROUP BY v."userId") s
   WHERE u.id = s."userId"`,
);
await run(
  'view total trigger resumed',
  `ALTER TABLE "ModelViewDaily" ENABLE TRIGGER "ModelViewDaily_user_view_total_insert"`,
);
await run(
  '50,000 newsletter subscribers',
  `INSERT INTO "NewsletterSubscriber" (email, "createdAt")
   SELECT 'reader' || g || '@mail' || (g % 500) || '.test', now() - (g || ' minutes')::interval
   FROM generate_series(1, 50000) g`,
);
await run(
  '20,000 support requests',
  `INSERT INTO "SupportRequest" ("tenantId", "userId", subject, message, priority, "targetHours", "planName", status, "createdAt", "updatedAt")
   SELECT u."tenantId", u.id, 'Request ' || g || ': model ' || (g % 20) || ' does not load', 'Details of request ' || g,
          g % 7 = 0, CASE WHEN g % 7 = 0 THEN 4 ELSE 16 END, 'Educator Monthly',
          (ARRAY['open', 'answered', 'closed'])[1 + g % 3]::"SupportStatus",
          now() - (g || ' minutes')::interval, now()
   FROM generate_series(1, 20000) g JOIN "User" u ON u."userName" = 'pupil' || (g * 5)`,
);
await run(
  '2,000 more users in the demo school',
  `INSERT INTO "User" ("tenantId", name, "userName", email, "createdAt", "updatedAt")
   SELECT t.id, 'Demo Pupil ' || g, 'demopupil' || g, 'demopupil' || g || '@demo.helix.local', now() - (g || ' minutes')::interval, now()
   FROM generate_series(1, 2000) g JOIN "Tenant" t ON t."domainPrefix" = 'demo'`,
);
await run(
  "5,000 links in the demo school (the owner's)",
  `INSERT INTO "EmbedToken" ("tokenHash", "modelId", "tenantId", "createdById", settings, "createdAt", "expiresAt", kind)
   SELECT md5('link' || g) || md5('seed' || g), m.id, u."tenantId", u.id, ARRAY['labels_ui'], now() - (g || ' minutes')::interval,
          CASE WHEN g % 3 = 0 THEN now() + (g || ' hours')::interval END,
          (CASE WHEN g % 2 = 0 THEN 'share' ELSE 'embed' END)::"EmbedLinkKind"
   FROM generate_series(1, 5000) g
   JOIN "User" u ON u.email = 'owner@demo.helix.local'
   JOIN "Model" m ON m."urlModelName" = 'model-' || (1 + g % 20)`,
);
await run('analyzed', 'ANALYZE');
await client.end();
console.log(`done: ${url}`);
