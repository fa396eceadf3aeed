/**
 * `node --import tsx packages/stripe-local/src/main.ts`: the Stripe-compatible server on
 * STRIPE_LOCAL_PORT (default 12111). STRIPE_LOCAL_WEBHOOK_URL (+ STRIPE_LOCAL_WEBHOOK_SECRET) registers a
 * webhook endpoint; STRIPE_LOCAL_PUBLIC_URL is where browsers reach it; STRIPE_LOCAL_SNAPSHOT keeps the
 * state in that JSON file (+ `.journal`, fsynced before each answer) across restarts;
 * STRIPE_LOCAL_JOURNAL_COMPACT_BYTES sets when the journal is compacted into it; STRIPE_LOCAL_AFTER_RETRIES
 * sets what a subscription and its invoice become when every retry failed.
 */
import type { AfterRetries } from './core/context.ts';
import { DEFAULT_PORT, startStripeLocal } from './index.ts';

if (process.env.NODE_ENV === 'production') {
  console.error(
    '[stripe-local] refuses to run with NODE_ENV=production: use real Stripe (STRIPE_SECRET_KEY).',
  );
  process.exit(1);
}

/** STRIPE_LOCAL_AFTER_RETRIES=<cancel|unpaid|past_due>,<uncollectible|past_due> (Stripe's failed-payment settings). */
function afterRetriesFromEnv(): AfterRetries | undefined {
  const value = process.env.STRIPE_LOCAL_AFTER_RETRIES;
  if (!value) return undefined;
  const [subscription, invoice = 'uncollectible'] = value.split(',').map((s) => s.trim());
  if (
    !['cancel', 'unpaid', 'past_due'].includes(subscription!) ||
    !['uncollectible', 'past_due'].includes(invoice)
  ) {
    console.error(
      `[stripe-local] STRIPE_LOCAL_AFTER_RETRIES=${value}: expected <cancel|unpaid|past_due>,<uncollectible|past_due>`,
    );
    process.exit(1);
  }
  return { subscription, invoice } as AfterRetries;
}

const webhookUrl = process.env.STRIPE_LOCAL_WEBHOOK_URL;
const local = await startStripeLocal({
  port: process.env.STRIPE_LOCAL_PORT ? Number(process.env.STRIPE_LOCAL_PORT) : DEFAULT_PORT,
  host: process.env.STRIPE_LOCAL_HOST,
  publicUrl: process.env.STRIPE_LOCAL_PUBLIC_URL,
  secretKey: process.env.STRIPE_LOCAL_SECRET_KEY,
  publishableKey: process.env.STRIPE_LOCAL_PUBLISHABLE_KEY,
  webhooks: webhookUrl ? [{ url: webhookUrl, secret: process.env.STRIPE_LOCAL_WEBHOOK_SECRET }] : [],
  snapshotFile: process.env.STRIPE_LOCAL_SNAPSHOT,
  afterRetries: afterRetriesFromEnv(),
  journalCompactBytes: process.env.STRIPE_LOCAL_JOURNAL_COMPACT_BYTES
    ? Number(process.env.STRIPE_LOCAL_JOURNAL_COMPACT_BYTES)
    : undefined,
});

console.log(`[stripe-local] listening on ${local.url}
  STRIPE_SECRET_KEY=${local.secretKey}
  STRIPE_PUBLISHABLE_KEY=${local.publishableKey}
  STRIPE_API_URL=${local.url}
  STRIPE_JS_URL=${local.stripeJsUrl}${local.webhookSecret ? `\n  STRIPE_WEBHOOK_SECRET=${local.webhookSecret} (-> ${webhookUrl})` : ''}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void local.stop().then(() => process.exit(0));
  });
}
