import { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { JOBS, QUEUE_NAME } from '@helix/shared';
import type { Config } from '@helix/server';
import { createDb } from '@helix/server/db';
import type { Redis } from '@helix/server/redis';
import { billingConfigured } from '@helix/server/billing/stripe-client';
import type { BillingDeps } from '@helix/server/billing/tenant-billing';

/**
 * The worker's side of billing: the dependencies of billing-email and reconcile-billing, and the
 * reconcile schedule (every BILLING_RECONCILE_INTERVAL_MS, plus one run at start) when Stripe is
 * configured.
 */
export interface BillingRuntime {
  deps: BillingDeps;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createBillingRuntime(config: Config, logger: Logger, queueConnection: Redis): BillingRuntime {
  const db = createDb(config.DATABASE_URL);
  const deps: BillingDeps = { config, db, logger };
  return {
    deps,
    async start() {
      if (!billingConfigured(config)) {
        logger.info('Stripe is not configured: no billing reconcile schedule');
        return;
      }
      const queue = new Queue(QUEUE_NAME, { connection: queueConnection, prefix: config.REDIS_PREFIX });
      try {
        await queue.upsertJobScheduler(
          JOBS.reconcileBilling.name,
          { every: config.BILLING_RECONCILE_INTERVAL_MS },
          {
            name: JOBS.reconcileBilling.name,
            data: { reason: 'schedule' },
            opts: { attempts: 1, removeOnComplete: true, removeOnFail: { count: 100 } },
          },
        );
        // One pass over every tenant with a Stripe customer at each start (incl. tenants in status
        // none, whose stored customer Stripe may no longer know), not only after the first interval.
        await queue.add(
          JOBS.reconcileBilling.name,
          JOBS.reconcileBilling.payload.parse({ reason: 'start' }),
          {
            jobId: `reconcile-billing-start-${Date.now()}`,
            attempts: 3,
            removeOnComplete: true,
            removeOnFail: { count: 100 },
          },
        );
      } finally {
        await queue.close();
      }
    },
    async stop() {
      await db.$disconnect();
    },
  };
}
