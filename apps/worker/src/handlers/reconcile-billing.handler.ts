import { billingConfigured } from '@helix/server/billing/stripe-client';
import { reconcileBilling } from '@helix/server/billing/reconcile-billing.command';
import type { BillingDeps } from '@helix/server/billing/tenant-billing';
import type { JobHandler } from '../registry.ts';

/**
 * reconcile-billing: converge tenants on Stripe (the schedule: those whose status can move; at start
 * and by hand: every tenant with a Stripe customer; or one tenant), recovering lost customers.
 */
export function reconcileBillingHandler(deps: BillingDeps): JobHandler<'reconcile-billing'> {
  return async (payload) => {
    if (!billingConfigured(deps.config)) return { skipped: 'Stripe is not configured' };
    const { checked, changed, failed, recovered } = await reconcileBilling(deps, {
      tenantId: payload.tenantId,
      all: payload.reason !== 'schedule',
    });
    deps.logger?.info({ checked, changed, failed, recovered, reason: payload.reason }, 'billing reconciled');
    if (failed > 0) throw new Error(`reconcile-billing: ${failed} tenant(s) failed`);
    return { checked, changed };
  };
}
