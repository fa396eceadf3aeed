import type { BillingDeps } from './tenant-billing.ts';
import { grantPlatformSubscription } from './grant-subscription.command.ts';

/** The seeded demo tenant (prisma/seed/accounts.ts DEMO_TENANT). */
export const DEMO_DOMAIN_PREFIX = 'demo';

/**
 * Development start-up: the seeded demo tenant's plan (stored as active by the seed, with no Stripe
 * objects) is made real in Stripe (stripe-local by default) as a platform grant on the same plan and
 * seats, so its billing pages, the webhooks and the reconcile job see a true subscription. Nothing
 * happens once the tenant has a Stripe customer, or when there is no demo tenant.
 */
export async function ensureDemoSubscription(deps: BillingDeps): Promise<'granted' | 'present' | 'none'> {
  const tenant = await deps.db.tenant.findUnique({
    where: { domainPrefix: DEMO_DOMAIN_PREFIX },
    include: { subscription: true },
  });
  const sub = tenant?.subscription;
  if (!tenant || !sub?.planId) return 'none';
  if (tenant.stripeCustomerId || sub.stripeSubscriptionId) return 'present';
  await grantPlatformSubscription(deps, { tenantId: tenant.id, planId: sub.planId, quantity: sub.userLimit });
  return 'granted';
}
