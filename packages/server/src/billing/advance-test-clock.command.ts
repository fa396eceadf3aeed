import { AppError } from '../errors.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { syncTenantSubscription, type SyncResult } from './sync-subscription.command.ts';
import type { BillingDeps } from './tenant-billing.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Development and tests (STRIPE_TEST_CLOCKS): runs a tenant's Stripe test clock forward to `to` (a
 * trial's end, a renewal), waits until Stripe has moved the clock's objects, then converges the
 * stored state (as the webhooks would). Answers the clock's new time and the sync's result.
 */
export async function advanceTenantClock(
  deps: BillingDeps,
  domainPrefix: string,
  to: Date | { days: number },
): Promise<{ clock: string; frozenTime: number; sync: SyncResult }> {
  const tenant = await deps.db.tenant.findUnique({ where: { domainPrefix } });
  if (!tenant?.stripeCustomerId) throw AppError.notFound();
  const stripe = stripeOf(deps);
  const customer = await stripe.customers.retrieve(tenant.stripeCustomerId);
  const clockOf = (c: typeof customer) =>
    'deleted' in c && c.deleted ? null : (c as Stripe.Customer).test_clock;
  const clockRef = clockOf(customer);
  const clockId = typeof clockRef === 'string' ? clockRef : (clockRef?.id ?? null);
  if (!clockId) {
    throw AppError.conflict(
      'This tenant has no test clock (its customer was made without STRIPE_TEST_CLOCKS).',
    );
  }
  const clock = await stripe.testHelpers.testClocks.retrieve(clockId);
  const target =
    to instanceof Date ? Math.floor(to.getTime() / 1000) : clock.frozen_time + Math.round(to.days * 86_400);
  await stripe.testHelpers.testClocks.advance(clockId, { frozen_time: target });
  for (let i = 0; i < 600; i += 1) {
    const now = await stripe.testHelpers.testClocks.retrieve(clockId);
    if (now.status === 'ready') {
      const sync = await syncTenantSubscription(deps, tenant.id);
      return { clock: clockId, frozenTime: now.frozen_time, sync };
    }
    if (now.status === 'internal_failure') throw new Error(`test clock ${clockId} failed to advance`);
    await sleep(100);
  }
  throw new Error(`test clock ${clockId} did not finish advancing`);
}
