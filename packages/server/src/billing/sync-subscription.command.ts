import { VIEWS_PER_BLOCK } from '@helix/shared/schemas/billing';
import type { Plan } from '../db.ts';
import { LIVE_STRIPE_STATUSES, storedFromStripe } from './subscription-state.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { customerSubscriptions, type BillingDeps, type Tx } from './tenant-billing.ts';

/** Whether the invoice's payment was tried and failed (an open invoice with an attempt). */
export function invoicePaymentFailed(invoice: Stripe.Subscription['latest_invoice']): boolean {
  if (!invoice || typeof invoice === 'string') return false;
  return invoice.status === 'open' && invoice.attempted === true && (invoice.attempt_count ?? 0) > 0;
}

const priceOf = (sub: Stripe.Subscription) => sub.items.data[0]?.price;

/** Which of our plans the subscription is on: its price's planId, else the plan holding the price id. */
export async function planOfSubscription(tx: Tx, sub: Stripe.Subscription): Promise<Plan | null> {
  const price = priceOf(sub);
  const fromMeta = Number(price?.metadata?.planId ?? sub.metadata?.planId);
  if (Number.isInteger(fromMeta) && fromMeta > 0) {
    const plan = await tx.plan.findUnique({ where: { id: fromMeta } });
    if (plan) return plan;
  }
  return price ? tx.plan.findFirst({ where: { stripePriceId: price.id } }) : null;
}

/** The tenant's current subscription among the customer's: the newest live one, else the newest. */
export const currentSubscription = (subs: Stripe.Subscription[]): Stripe.Subscription | null =>
  subs.find((s) => LIVE_STRIPE_STATUSES.has(s.status)) ?? subs[0] ?? null;

export interface SyncResult {
  tenantId: number;
  subscriptionId: string | null;
  status: string;
  changed: boolean;
}

/**
 * Converges the tenant's stored subscription on what Stripe holds now (called under the tenant's
 * billing lock, in its transaction): re-reads every subscription of the customer, picks the current
 * one, and stores its state. Events in any order, duplicates and missed events all end in the same
 * stored state. It also restores two rules Stripe cannot enforce for us:
 * - a tenant has one live subscription: older live ones are cancelled (prorated, no invoice);
 * - a trial ends when the plan is changed: a trialing subscription whose price is no longer the one
 *   it started its trial on gets trial_end now.
 * Additional views count for the billing period they were bought in: a new period recounts them.
 */
export async function syncTenantSubscription(
  deps: BillingDeps,
  tx: Tx,
  tenantId: number,
): Promise<SyncResult> {
  const tenant = await tx.tenant.findUnique({ where: { id: tenantId }, include: { subscription: true } });
  if (!tenant?.stripeCustomerId) {
    return { tenantId, subscriptionId: null, status: tenant?.subscription?.status ?? 'none', changed: false };
  }
  const stripe = stripeOf(deps);
  let subs = await customerSubscriptions(stripe, tenant.stripeCustomerId);
  const live = subs.filter((s) => LIVE_STRIPE_STATUSES.has(s.status));
  if (live.length > 1) {
    for (const older of live.slice(1)) {
      await stripe.subscriptions.cancel(
        older.id,
        { prorate: true },
        { idempotencyKey: `helix-cancel-older-${older.id}` },
      );
    }
    subs = await customerSubscriptions(stripe, tenant.stripeCustomerId);
  }
  let current = currentSubscription(subs);
  if (current?.status === 'trialing') {
    const started = current.metadata?.trialPriceId;
    const price = priceOf(current)?.id;
    if (started && price && started !== price) {
      current = await stripe.subscriptions.update(
        current.id,
        { trial_end: 'now', proration_behavior: 'none', expand: ['latest_invoice'] },
        { idempotencyKey: `helix-end-trial-${current.id}-${price}` },
      );
    }
  }
  const trialUsed = subs.some((s) => s.trial_start !== null || s.trial_end !== null);
  const stored = tenant.subscription;
  if (!current) {
    const data = { status: 'none' as const, activePayment: false, stripeSubscriptionId: null };
    await tx.tenantSubscription.upsert({ where: { tenantId }, update: data, create: { tenantId, ...data } });
    return { tenantId, subscriptionId: null, status: 'none', changed: stored?.status !== 'none' };
  }
  const next = storedFromStripe(current, invoicePaymentFailed(current.latest_invoice));
  const plan = await planOfSubscription(tx, current);
  const periodChanged = stored?.currentPeriodStart?.getTime() !== next.currentPeriodStart?.getTime();
  let additionalViews = stored?.additionalViews ?? 0;
  if (periodChanged && next.currentPeriodStart) {
    const bought = await tx.additionalViewPurchase.aggregate({
      where: {
        tenantId,
        createdAt: {
          gte: next.currentPeriodStart,
          ...(next.currentPeriodEnd ? { lt: next.currentPeriodEnd } : {}),
        },
      },
      _sum: { quantity: true },
    });
    additionalViews = (bought._sum.quantity ?? 0) * VIEWS_PER_BLOCK;
  }
  // Another tenant's row may still hold this id (never in practice: one customer per tenant).
  const data = {
    planId: plan?.id ?? stored?.planId ?? null,
    stripeSubscriptionId: current.id,
    status: next.status,
    activePayment: next.activePayment,
    isTrialPassed: (stored?.isTrialPassed ?? false) || trialUsed,
    trialEnd: next.trialEnd,
    cancelAt: next.cancelAt,
    canceledAt: next.canceledAt,
    currentPeriodStart: next.currentPeriodStart,
    currentPeriodEnd: next.currentPeriodEnd,
    userLimit: next.userLimit,
    additionalViews,
  };
  const changed =
    !stored ||
    stored.status !== data.status ||
    stored.activePayment !== data.activePayment ||
    stored.stripeSubscriptionId !== data.stripeSubscriptionId ||
    stored.planId !== data.planId;
  await tx.tenantSubscription.upsert({ where: { tenantId }, update: data, create: { tenantId, ...data } });
  return { tenantId, subscriptionId: current.id, status: data.status, changed };
}
