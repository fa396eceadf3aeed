import { DEMO } from './accounts.ts';
import { sql } from './billing.ts';
import { demoEmbedToken } from './demo-link.ts';

/**
 * Rows for every table page, as a busy platform shows them whichever tests ran before: a support
 * request to expand, an embed link, a learning platform, a newsletter subscriber, a view of the demo
 * owner's (the statistics' top users) and more pupils than one page of the users and permissions
 * lists holds (never signed in: their rows offer Resend).
 */
export async function seedTableRows(): Promise<void> {
  await sql(
    `INSERT INTO "SupportRequest" ("tenantId", "userId", subject, message, "targetHours", "updatedAt")
     SELECT "tenantId", id, 'Screens check', 'A request to expand on a phone.', 24, now()
     FROM "User" WHERE email = $1`,
    [DEMO.owner.email],
  );
  await demoEmbedToken();
  await sql(
    `INSERT INTO "LtiPlatform" ("tenantId", name, issuer, "clientId", "deploymentIds", "authLoginUrl",
       "tokenUrl", "keysetUrl", "updatedAt")
     SELECT "tenantId", 'Moodle of Hillside School', 'https://moodle.hillside.example.org', 'screens-client',
       ARRAY['1'], 'https://moodle.hillside.example.org/auth', 'https://moodle.hillside.example.org/token',
       'https://moodle.hillside.example.org/certs', now()
     FROM "User" WHERE email = $1
     ON CONFLICT DO NOTHING`,
    [DEMO.owner.email],
  );
  await sql(
    `INSERT INTO "NewsletterSubscriber" (email) VALUES ('screens.subscriber@example.com') ON CONFLICT DO NOTHING`,
  );
  await sql(
    `INSERT INTO "User" ("tenantId", name, "userName", email, "updatedAt")
     SELECT "tenantId", 'Screens pupil ' || n, 'screens-pupil-' || n, 'screens-pupil-' || n || '@example.com', now()
     FROM "User", generate_series(1, 25) AS n WHERE email = $1
     ON CONFLICT DO NOTHING`,
    [DEMO.owner.email],
  );
  await sql(
    `INSERT INTO "ModelViewDaily" ("modelId", "tenantId", day, source, "viewerKey", "userId", count)
     SELECT (SELECT min(id) FROM "Model"), "tenantId", current_date, 'portal', 'u:' || id, id, 3
     FROM "User" WHERE email = $1
     ON CONFLICT DO NOTHING`,
    [DEMO.owner.email],
  );
}
