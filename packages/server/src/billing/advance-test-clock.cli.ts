import { parseConfig } from '../config.ts';
import { createDb } from '../db.ts';
import { advanceTenantClock } from './advance-test-clock.command.ts';

/**
 * `npm run billing:advance-clock -- <tenant domain prefix> <days>`: runs the tenant's Stripe test
 * clock forward (development with STRIPE_TEST_CLOCKS=true, against stripe-local or Stripe test mode),
 * e.g. 31 days to end a trial and see the first charge, or a month more to see the renewal.
 */
const [domainPrefix, days] = process.argv.slice(2);
if (!domainPrefix || !days || !Number.isFinite(Number(days)) || Number(days) <= 0) {
  console.error('usage: npm run billing:advance-clock -- <tenant domain prefix> <days>');
  process.exit(2);
}
const config = parseConfig();
const db = createDb(config.DATABASE_URL);
try {
  const result = await advanceTenantClock({ config, db }, domainPrefix, { days: Number(days) });
  console.log(
    `${result.clock} is at ${new Date(result.frozenTime * 1000).toISOString()}; the subscription is ${result.sync.status}`,
  );
} finally {
  await db.$disconnect();
}
