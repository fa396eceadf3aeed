import { ERROR_CODES } from '@helix/shared/error-codes';
import type { TenantSubscription } from '../db.ts';
import { AppError } from '../errors.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { ensureGrantCoupon, planPriceId } from './stripe-catalog.command.ts';
import { stripeOf } from './stripe-client.ts';
import { readBillingAccount } from './billing-account.query.ts';
import { syncUnserialised } from './sync-subscription.command.ts';
import { planAndSeats } from './tenant-plan.ts';
import { ensureCustomer, serialiseTenantBilling, storeBilling, type BillingDeps } from './tenant-billing.ts';

/**
 * A platform grant (a user added by a platform admin at /users/add-user): the tenant's Stripe customer
 * and a subscription on the plan with the 100%-off coupon and no trial, stored like any other (Stripe
 * stays the source of truth; the webhooks and the reconcile job keep it in step). Idempotent: the same
 * grant again answers the same subscription; another plan replaces the live one. A granted tenant's
 * trial counts as used (isTrialPassed), so a later plan of its own is charged at once.
 */
export async function grantPlatformSubscription(
  deps: BillingDeps,
  input: { tenantId: number; planId: number; quantity?: number },
): Promise<TenantSubscription> {
  return serialiseTenantBilling(input.tenantId, async () => {
    const stripe = stripeOf(deps);
    const { plan, seats } = await planAndSeats(deps.db, input.planId, input.quantity);
    const customer = await ensureCustomer(deps, input.tenantId);
    const price = await planPriceId(deps, plan);
    const coupon = await ensureGrantCoupon(stripe);
    const account = await readBillingAccount(stripe, customer);
    const subs = account.subscriptions;
    const same = subs.find(
      (s) =>
        s.items.data[0]?.price.id === price && s.items.data[0]?.quantity === seats && s.status === 'active',
    );
    if (!same) {
      // The grant is active at once (nothing to pay): the sync then ends the plan it replaces.
      const sub = await stripe.subscriptions.create(
        {
          customer,
          items: [{ price, quantity: seats }],
          discounts: [{ coupon: coupon.id }],
          metadata: {
            tenantId: String(input.tenantId),
            planId: String(plan.id),
            grant: 'platform',
            ...(account.live ? { replaces: account.live.id } : {}),
          },
        },
        {
          idempotencyKey: idempotencyKey(input.tenantId, 'grant', {
            customer,
            price,
            seats,
            generation: subs.length,
          }),
        },
      );
      if (sub.status !== 'active') {
        throw new AppError(ERROR_CODES.grantFailed, {
          status: 502,
          message: 'The subscription could not be granted.',
        });
      }
    }
    await syncUnserialised(deps, input.tenantId);
    // A granted plan stands in for the trial: the tenant does not get a free month on top of it later.
    return storeBilling(deps.db, input.tenantId, (tx) =>
      tx.tenantSubscription.update({ where: { tenantId: input.tenantId }, data: { isTrialPassed: true } }),
    );
  });
}
