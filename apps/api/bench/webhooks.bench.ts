/**
 * Benchmark of the Stripe webhook: 2,000 signed events (every event Stripe emitted for 100 tenants'
 * subscriptions, each delivered several times, shuffled so updates often come before creations) posted
 * at 50 concurrent connections. Reports events/s, p50 and p99, then checks that every tenant's stored
 * subscription equals what Stripe holds (status, payment, subscription id, plan, seats, dates):
 * PASS/FAIL, exit code 1 on FAIL.
 *
 *   npm run bench:webhooks        (or: npx tsx apps/api/bench/webhooks.bench.ts)
 *
 * The load and the check are apps/api/bench/support/webhook-run.ts (bench:cluster runs them through nginx).
 *
 * Environment: BENCH_EVENTS (default 2000), BENCH_CONCURRENCY (default 50), BENCH_TENANTS (default
 * 100), plus what the tests use (TEST_ADMIN_DATABASE_URL / DATABASE_URL, REDIS_URL). The API runs in a
 * child process; the Stripe-compatible server (packages/stripe-local) and the load generator in this
 * one. Each webhook re-reads the customer's subscriptions from Stripe one tenant at a time (per process), then stores in a short transaction.
 */
import os from 'node:os';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import { createLogger, parseConfig } from '@helix/server';
import { createDb } from '@helix/server/db';
import { COMMAND_CLIENT_OPTIONS, createRedis, redisReady } from '@helix/server/redis';
import { JobQueue } from '@helix/server/queue/job-queue';
import { STRIPE_API_VERSION } from '@helix/server/billing/stripe-client';
import { ensureStripeCatalog } from '@helix/server/billing/stripe-catalog.command';
import { startStripeLocal } from '@helix/stripe-local';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { seed } from '../../../prisma/seed.ts';
import { createApp } from '../src/app.ts';
import { makeTenants, postWebhooks, webhookDeliveries, webhookMismatches } from './support/webhook-run.ts';

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
    const tenantIds = await makeTenants(db, stripe, TENANTS);
    const { events, deliveries } = await webhookDeliveries(db, stripe, tenantIds, EVENTS);
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

    const run = await postWebhooks({
      url,
      deliveries,
      stripe,
      secret: WEBHOOK_SECRET,
      concurrency: CONCURRENCY,
    });
    console.log(
      `webhook deliveries ${String(run.deliveries).padStart(6)}  ${run.perSecond.toFixed(0).padStart(5)} events/s  ` +
        `p50 ${run.p50.toFixed(1)} ms  p99 ${run.p99.toFixed(1)} ms` +
        (run.errors ? `  (${run.errors} non-2xx)` : '') +
        `  (load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' / ')} on ${os.cpus().length} cores)`,
    );
    const processed = await db.processedStripeEvent.count();
    console.log(`events recorded once: ${processed} of ${events.length} distinct`);
    if (run.errors > 0 || processed !== events.length) failed = true;

    // Every tenant's stored state must equal Stripe's.
    const mismatches = await webhookMismatches(db, stripe, tenantIds);
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
