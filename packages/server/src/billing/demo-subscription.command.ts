import { readBillingAccount } from './billing-account.query.ts';
import { grantPlatformSubscription } from './grant-subscription.command.ts';
import { stripeOf } from './stripe-client.ts';
import { stripeObjectMissing, type BillingDeps } from './tenant-billing.ts';

/** The seeded demo tenant (prisma/seed/accounts.ts DEMO_TENANT). */
export const DEMO_DOMAIN_PREFIX = 'demo';

/**
 * Development start-up: the seeded demo tenant's plan is a real 100%-off subscription in Stripe
 * (stripe-local by default), a platform grant on its stored plan and seats, so its billing pages,
 * the webhooks and the reconcile job see a true subscription. It converges with the Stripe server it
 * finds: when that server lacks the stored customer or has no live subscription for it (a fresh
 * stripe-local after `rm -rf .data`, a second clone beside the same PostgreSQL), the grant is made
 * again (ensureCustomer makes a new customer for a missing one). Nothing happens when Stripe already
 * holds a live subscription, or when there is no demo tenant.
 */
export async function ensureDemoSubscription(deps: BillingDeps): Promise<'granted' | 'present' | 'none'> {
  const tenant = await deps.db.tenant.findUnique({
    where: { domainPrefix: DEMO_DOMAIN_PREFIX },
    include: { subscription: true },
  });
  const sub = tenant?.subscription;
  if (!tenant || !sub?.planId) return 'none';
  if (tenant.stripeCustomerId) {
    try {
      const account = await readBillingAccount(stripeOf(deps), tenant.stripeCustomerId);
      if (account.live) return 'present';
    } catch (error) {
      if (!stripeObjectMissing(error)) throw error;
    }
  }
  await grantPlatformSubscription(deps, { tenantId: tenant.id, planId: sub.planId, quantity: sub.userLimit });
  return 'granted';
}
