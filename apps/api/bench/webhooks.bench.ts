/**
 * Benchmark of the Stripe webhook: 2,000 signed events (every event Stripe emitted for 100 tenants'
 * subscriptions, each delivered several times, shuffled so updates often come before creations) posted
 * at 50 concurrent connections. Reports events/s, p50 and p99, then checks that every tenant's stored
 * subscription equals what Stripe holds (status, payment, subscription id, plan, seats, dates):
 * PASS/FAIL, exit code 1 on FAIL.
 *
 *   npm run bench:webhooks        (or: npx tsx apps/api/bench/webhooks.bench.ts)
 *
 * Environment: BENCH_EVENTS (default 2000), BENCH_CONCURRENCY (default 50), BENCH_TENANTS (default
 * 100), plus what the tests use (TEST_ADMIN_DATABASE_URL / DATABASE_URL, REDIS_URL). The API runs in a
 * child process; the Stripe-compatible server (packages/stripe-local) and the load generator in this
 * one. Each webhook re-reads the customer's subscriptions from Stripe one tenant at a time (per process), then stores in a short transaction.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import { createLogger, parseConfig } from '@helix/server';
import { createDb, type Db } from '@helix/server/db';
import { COMMAND_CLIENT_OPTIONS, createRedis, redisReady } from '@helix/server/redis';
import { JobQueue } from '@helix/server/queue/job-queue';
import { STRIPE_API_VERSION } from '@helix/server/billing/stripe-client';
import { ensureStripeCatalog } from '@helix/server/billing/stripe-catalog.command';
import { storedFromStripe } from '@helix/server/billing/subscription-state';
import { paymentFailedOf } from '@helix/server/billing/sync-subscription.command';
import { latestInvoiceOf, readBillingAccount } from '@helix/server/billing/billing-account.query';
import { startStripeLocal } from '@helix/stripe-local';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { seed } from '../../../prisma/seed.ts';
import { createApp } from '../src/app.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const TENANTS = Number(process.env.BENCH_TENANTS ?? 100);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('hex')}`;

interface Setup {
  databaseUrl: string;
  prefix: string;
  stripeUrl: string;
  secretKey: string;
  webhookSecret: string;
}

// ---- child: the API ---------------------------------------------------------------------------------

async function serve(setup: Setup) {
  const config = parseConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: setup.databaseUrl,
    REDIS_URL,
    REDIS_PREFIX: setup.prefix,
    PUBLIC_URL: 'http://127.0.0.1',
    SIGNING_SECRET: randomBytes(32).toString('hex'),
    STRIPE_SECRET_KEY: setup.secretKey,
    STRIPE_API_URL: setup.stripeUrl,
    STRIPE_WEBHOOK_SECRET: setup.webhookSecret,
  });
  const db = createDb(config.DATABASE_URL);
  const redis = createRedis(REDIS_URL, COMMAND_CLIENT_OPTIONS);
  await redisReady(redis); // no offline queue: connected before the first call
  const queueConnection = createRedis(REDIS_URL, { maxRetriesPerRequest: null });
  const app = createApp({
    config,
    db,
    redis,
    queue: new JobQueue(queueConnection, config.REDIS_PREFIX),
    logger: createLogger(process.env.BENCH_LOG_LEVEL === 'error' ? 'error' : 'silent', 'bench'),
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.send?.({ api: (server.address() as { port: number }).port });
}

// ---- parent: setup, load, check ---------------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Tenants in every state Stripe can put them in: active, trialing, cancelling, cancelled, incomplete. */
async function makeTenants(db: Db, stripe: Stripe): Promise<number[]> {
  const plans = await db.plan.findMany({ orderBy: { id: 'asc' } });
  const ids: number[] = [];
  for (let i = 0; i < TENANTS; i += 1) {
    const plan = plans[i % plans.length]!;
    const tenant = await db.tenant.create({
      data: { domainPrefix: `bench${i}`, name: `Bench ${i}`, subscription: { create: {} } },
    });
    ids.push(tenant.id);
    const customer = await stripe.customers.create({
      name: tenant.name,
      metadata: { tenantId: String(tenant.id) },
    });
    await db.tenant.update({ where: { id: tenant.id }, data: { stripeCustomerId: customer.id } });
    const pm = await stripe.paymentMethods.attach((await stripe.paymentMethods.retrieve('pm_card_visa')).id, {
      customer: customer.id,
    });
    const kind = i % 5;
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: plan.stripePriceId!, quantity: plan.userLimit + (i % 3) }],
      default_payment_method: pm.id,
      metadata: { tenantId: String(tenant.id), planId: String(plan.id) },
      ...(kind === 1 ? { trial_period_days: 30 } : {}),
      ...(kind === 4 ? { payment_behavior: 'default_incomplete' as const } : {}),
    });
    if (kind === 2) await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    if (kind === 3) await stripe.subscriptions.cancel(sub.id);
  }
  return ids;
}

async function main() {
  const database = await createTestDatabase('helix_bench');
  const prefix = `helixbench-${randomBytes(4).toString('hex')}`;
  const local = await startStripeLocal({ port: 0 });
  const db = createDb(database.url);
  let child: ChildProcess | undefined;
  let failed = false;
  try {
    await seed(database.url, { demo: false });
    const stripe = new Stripe(local.secretKey, { apiVersion: STRIPE_API_VERSION, ...local.sdkOptions });
    await ensureStripeCatalog({
      config: parseConfig({
        DATABASE_URL: database.url,
        STRIPE_SECRET_KEY: local.secretKey,
        STRIPE_API_URL: local.url,
      }),
      db,
    });
    const tenantIds = await makeTenants(db, stripe);
    const customers = new Set(
      (await db.tenant.findMany({ where: { id: { in: tenantIds } } })).map((t) => t.stripeCustomerId!),
    );
    const events: Stripe.Event[] = [];
    for await (const event of stripe.events.list({ limit: 100 })) {
      const object = event.data.object as { customer?: unknown; id?: string; object?: string };
      const customer = object.object === 'customer' ? object.id : object.customer;
      if (typeof customer === 'string' && customers.has(customer)) events.push(event);
    }
    const deliveries = shuffle(Array.from({ length: EVENTS }, (_, i) => events[i % events.length]!));
    console.log(
      `${tenantIds.length} tenants, ${events.length} distinct events, ${deliveries.length} deliveries ` +
        `(${(deliveries.length / events.length).toFixed(1)} each), ${CONCURRENCY} connections`,
    );

    child = fork(fileURLToPath(import.meta.url), [
      '--serve',
      JSON.stringify({
        databaseUrl: database.url,
        prefix,
        stripeUrl: local.url,
        secretKey: local.secretKey,
        webhookSecret: WEBHOOK_SECRET,
      } satisfies Setup),
    ]);
    const { api } = await new Promise<{ api: number }>((resolve, reject) => {
      child!.once('message', (m) => resolve(m as { api: number }));
      child!.once('exit', (code) => reject(new Error(`server process exited (${code})`)));
    });
    child.on('exit', (code, signal) => console.log(`API process exited (${code ?? signal})`));
    const url = `http://127.0.0.1:${api}/api/stripe/webhook`;

    const latencies: number[] = [];
    let errors = 0;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < deliveries.length) {
          const event = deliveries[next++]!;
          const payload = JSON.stringify(event);
          const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
          const t = performance.now();
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'stripe-signature': signature },
            body: payload,
          });
          const text = await res.text();
          latencies.push(performance.now() - t);
          if (!res.ok) {
            errors += 1;
            if (errors <= 3) console.log(`HTTP ${res.status}: ${text.slice(0, 200)}`);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const sorted = latencies.sort((a, b) => a - b);
    console.log(
      `webhook deliveries ${String(latencies.length).padStart(6)}  ${(latencies.length / seconds).toFixed(0).padStart(5)} events/s  ` +
        `p50 ${percentile(sorted, 50).toFixed(1)} ms  p99 ${percentile(sorted, 99).toFixed(1)} ms` +
        (errors ? `  (${errors} non-2xx)` : ''),
    );
    const processed = await db.processedStripeEvent.count();
    console.log(`events recorded once: ${processed} of ${events.length} distinct`);
    if (errors > 0 || processed !== events.length) failed = true;

    // Every tenant's stored state must equal Stripe's.
    let mismatches = 0;
    for (const tenantId of tenantIds) {
      const tenant = await db.tenant.findUniqueOrThrow({
        where: { id: tenantId },
        include: { subscription: true },
      });
      const { current } = await readBillingAccount(stripe, tenant.stripeCustomerId!);
      const stored = tenant.subscription!;
      const expected = current
        ? storedFromStripe(current, paymentFailedOf(latestInvoiceOf(current), null, null))
        : null;
      const same =
        expected &&
        stored.stripeSubscriptionId === current!.id &&
        stored.status === expected.status &&
        stored.activePayment === expected.activePayment &&
        stored.userLimit === expected.userLimit &&
        stored.cancelAt?.getTime() === expected.cancelAt?.getTime() &&
        stored.trialEnd?.getTime() === expected.trialEnd?.getTime() &&
        stored.currentPeriodEnd?.getTime() === expected.currentPeriodEnd?.getTime() &&
        String(stored.planId) === (current!.items.data[0]?.price.metadata?.planId ?? '');
      if (!same) {
        mismatches += 1;
        if (mismatches <= 5) console.log('mismatch', tenantId, { stored, expected, stripe: current?.status });
      }
    }
    console.log(
      `stored state equals Stripe's for ${tenantIds.length - mismatches} of ${tenantIds.length} tenants: ` +
        (mismatches === 0 && !failed ? 'PASS' : 'FAIL'),
    );
    if (mismatches > 0) failed = true;
  } finally {
    child?.kill();
    await db.$disconnect();
    await local.stop();
    await dropDatabase(database.name).catch(() => undefined);
    const redis = createRedis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[2] === '--serve') {
  serve(JSON.parse(process.argv[3] ?? '{}') as Setup).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
