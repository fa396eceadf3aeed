import { DEFAULT_SECRET_KEY } from '@helix/stripe-local';
import { parseConfig } from '@helix/server/config';
import { createDb } from '@helix/server/db';
import { advanceTenantClock } from '@helix/server/billing/advance-test-clock.command';

/**
 * `npm run billing:advance-clock -- <tenant domain prefix> <days>`: runs the tenant's Stripe test
 * clock forward (development with STRIPE_TEST_CLOCKS=true, against stripe-local or Stripe test mode),
 * e.g. 31 days to end a trial and see the first charge, or a month more to see the renewal.
 * DATABASE_URL as `npm start` uses it (default: the local PostgreSQL's helix database); without
 * STRIPE_SECRET_KEY, the stripe-local that `npm start` runs (its fixed test key, STRIPE_LOCAL_PORT).
 */
const [domainPrefix, days] = process.argv.slice(2);
if (!domainPrefix || !days || !Number.isFinite(Number(days)) || Number(days) <= 0) {
  console.error('usage: npm run billing:advance-clock -- <tenant domain prefix> <days>');
  process.exit(2);
}
const local = !process.env.STRIPE_SECRET_KEY;
const config = parseConfig({
  DATABASE_URL: 'postgresql://127.0.0.1:5432/helix',
  ...process.env,
  ...(local
    ? {
        STRIPE_SECRET_KEY: DEFAULT_SECRET_KEY,
        STRIPE_API_URL: `http://127.0.0.1:${process.env.STRIPE_LOCAL_PORT ?? '12111'}`,
      }
    : {}),
});
const db = createDb(config.DATABASE_URL);
try {
  const result = await advanceTenantClock({ config, db }, domainPrefix, { days: Number(days) });
  console.log(
    `${result.clock} is at ${new Date(result.frozenTime * 1000).toISOString()}; the subscription is ${result.sync.status}`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}
