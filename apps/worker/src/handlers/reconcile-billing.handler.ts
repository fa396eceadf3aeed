import { billingConfigured } from '@helix/server/billing/stripe-client';
import { reconcileBilling } from '@helix/server/billing/reconcile-billing.command';
import type { BillingDeps } from '@helix/server/billing/tenant-billing';
import type { JobHandler } from '../registry.ts';

/** reconcile-billing: converge every live subscription (or one tenant's) on Stripe. */
export function reconcileBillingHandler(deps: BillingDeps): JobHandler<'reconcile-billing'> {
  return async (payload) => {
    if (!billingConfigured(deps.config)) return { skipped: 'Stripe is not configured' };
    const { checked, changed, failed } = await reconcileBilling(deps, { tenantId: payload.tenantId });
    deps.logger?.info({ checked, changed, failed, reason: payload.reason }, 'billing reconciled');
    if (failed > 0) throw new Error(`reconcile-billing: ${failed} tenant(s) failed`);
    return { checked, changed };
  };
}
