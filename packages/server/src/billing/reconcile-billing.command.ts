import { syncTenantSubscription, type SyncResult } from './sync-subscription.command.ts';
import { withTenantBillingLock, type BillingDeps } from './tenant-billing.ts';

/** Stored statuses that Stripe may still move (a deactivated or plan-less tenant has nothing to heal). */
const MOVING = ['trialing', 'active', 'canceled', 'past_due', 'incomplete'] as const;

/**
 * The reconcile job: re-reads every tenant with a live stored subscription (or one tenant) from Stripe
 * and converges, so a missed or failed webhook heals by itself. One tenant's failure does not stop the
 * others; it is counted and logged.
 */
export async function reconcileBilling(
  deps: BillingDeps,
  opts: { tenantId?: number } = {},
): Promise<{ checked: number; changed: number; failed: number; results: SyncResult[] }> {
  const tenants = await deps.db.tenant.findMany({
    where: {
      stripeCustomerId: { not: null },
      ...(opts.tenantId ? { id: opts.tenantId } : { subscription: { status: { in: [...MOVING] } } }),
    },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  const results: SyncResult[] = [];
  let failed = 0;
  for (const { id } of tenants) {
    try {
      results.push(await withTenantBillingLock(deps.db, id, (tx) => syncTenantSubscription(deps, tx, id)));
    } catch (err) {
      failed += 1;
      deps.logger?.error({ err, tenantId: id }, 'reconcile failed for a tenant');
    }
  }
  return { checked: tenants.length, changed: results.filter((r) => r.changed).length, failed, results };
}
