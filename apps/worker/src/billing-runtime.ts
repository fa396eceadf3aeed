import type { Logger } from 'pino';
import { JOBS } from '@helix/shared';
import type { Config } from '@helix/server';
import { billingConfigured } from '@helix/server/billing/stripe-client';
import type { JobQueue } from '@helix/server/queue/job-queue';

/**
 * The worker's side of billing: the reconcile schedule (every BILLING_RECONCILE_INTERVAL_MS, plus one
 * run at start) when Stripe is configured.
 */
export async function scheduleBillingReconcile(
  config: Config,
  logger: Logger,
  queue: JobQueue,
): Promise<void> {
  if (!billingConfigured(config)) {
    logger.info('Stripe is not configured: no billing reconcile schedule');
    return;
  }
  await queue.schedule(JOBS.reconcileBilling, config.BILLING_RECONCILE_INTERVAL_MS, { reason: 'schedule' });
  // One pass over every tenant with a Stripe customer at each start (incl. tenants in status none,
  // whose stored customer Stripe may no longer know), not only after the first interval.
  await queue.enqueue(JOBS.reconcileBilling, { reason: 'start' }, `reconcile-billing-start-${Date.now()}`);
}
