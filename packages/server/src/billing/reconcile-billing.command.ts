import { syncTenantSubscription, type SyncResult } from './sync-subscription.command.ts';
import { ensureCustomer, serialiseTenantBilling, type BillingDeps } from './tenant-billing.ts';
import { syncUnserialised } from './sync-subscription.command.ts';

/** Stored statuses that Stripe may still move (the schedule's pass; a start-up pass reads every tenant). */
const MOVING = ['none', 'trialing', 'active', 'canceled', 'past_due', 'incomplete'] as const;

/**
 * A tenant whose stored customer Stripe no longer knows (deleted in the dashboard, or a fresh Stripe
 * server beside an old database): a new customer is made and stored, and the stored state converges
 * on it (no subscription: status none). The tenant can subscribe again at once instead of meeting a
 * 404 on every billing call.
 */
async function recoverCustomer(deps: BillingDeps, tenantId: number): Promise<SyncResult> {
  return serialiseTenantBilling(tenantId, async () => {
    await ensureCustomer(deps, tenantId);
    const result = await syncUnserialised(deps, tenantId);
    return { ...result, changed: true, customerMissing: true };
  });
}

/**
 * The reconcile job: re-reads tenants with a Stripe customer from Stripe and converges, so a missed
 * or failed webhook heals by itself and a diverged Stripe (a customer it lost) is recovered from. The
 * schedule reads the tenants whose stored status can still move (incl. `none`); `all` (the run at
 * every worker start) reads every tenant with a customer. One tenant's failure does not stop the
 * others; it is counted and logged.
 */
export async function reconcileBilling(
  deps: BillingDeps,
  opts: { tenantId?: number; all?: boolean } = {},
): Promise<{ checked: number; changed: number; failed: number; recovered: number; results: SyncResult[] }> {
  const tenants = await deps.db.tenant.findMany({
    where: {
      stripeCustomerId: { not: null },
      ...(opts.tenantId
        ? { id: opts.tenantId }
        : opts.all
          ? {}
          : {
              OR: [{ subscription: { status: { in: [...MOVING] } } }, { subscription: { is: null } }],
            }),
    },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  const results: SyncResult[] = [];
  let failed = 0;
  let recovered = 0;
  for (const { id } of tenants) {
    try {
      let result = await syncTenantSubscription(deps, id);
      if (result.customerMissing) {
        result = await recoverCustomer(deps, id);
        recovered += 1;
      }
      results.push(result);
    } catch (err) {
      failed += 1;
      deps.logger?.error({ err, tenantId: id }, 'reconcile failed for a tenant');
    }
  }
  return {
    checked: tenants.length,
    changed: results.filter((r) => r.changed).length,
    failed,
    recovered,
    results,
  };
}
