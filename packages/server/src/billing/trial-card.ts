import { MSG } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { AppError } from '../errors.ts';
import { uniqueViolation } from '../prisma-errors.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { storeBilling, type BillingDeps } from './tenant-billing.ts';

/**
 * Trials once per card (issue 15): a card, known by Stripe's `card.fingerprint`, that already had a
 * free trial on any tenant gets the paid flow. The fingerprint is claimed (TrialCard) when a trial
 * starts on it.
 */

const fingerprintOf = (pm: Stripe.PaymentMethod | null | undefined): string | null =>
  pm?.card?.fingerprint ?? null;

/** The tenant that already had a trial on this card, or null. */
async function trialTenantOf(deps: BillingDeps, fingerprint: string): Promise<number | null> {
  const row = await deps.db.trialCard.findUnique({ where: { fingerprint } });
  return row?.tenantId ?? null;
}

/** Marks the tenant's trial as used (the wizard then offers the paid flow). */
export const markTrialUsed = (deps: BillingDeps, tenantId: number) =>
  storeBilling(deps.db, tenantId, (tx) =>
    tx.tenantSubscription.upsert({
      where: { tenantId },
      update: { isTrialPassed: true },
      create: { tenantId, isTrialPassed: true },
    }),
  );

/**
 * Before a trial on this card: refuses (409 TRIAL_ALREADY_USED, the tenant's trial marked used) when
 * the card had a trial on another tenant. Answers the fingerprint to claim once the trial exists.
 */
export async function assertCardMayTrial(
  deps: BillingDeps,
  tenantId: number,
  pm: Stripe.PaymentMethod,
): Promise<string | null> {
  const fingerprint = fingerprintOf(pm);
  if (!fingerprint) return null;
  const owner = await trialTenantOf(deps, fingerprint);
  if (owner !== null && owner !== tenantId) {
    await markTrialUsed(deps, tenantId);
    throw new AppError(ERROR_CODES.trialAlreadyUsed, { status: 409, message: MSG.trialAlreadyUsed });
  }
  return fingerprint;
}

/** Records that this card had its trial on the tenant (the first claim wins). */
export async function claimTrialCard(
  deps: BillingDeps,
  tenantId: number,
  fingerprint: string,
): Promise<void> {
  try {
    await deps.db.trialCard.create({ data: { fingerprint, tenantId } });
  } catch (error) {
    if (!uniqueViolation(error)) throw error;
  }
}

/**
 * A trialing subscription made outside the card form (hosted Checkout collects the card itself):
 * claims its card, or, when the card already had a trial on another tenant, ends the trial now (the
 * plan is charged at once). Answers 'ended' when it ended the trial.
 */
export async function checkTrialCard(
  deps: BillingDeps,
  tenantId: number,
  sub: Stripe.Subscription,
): Promise<'claimed' | 'ended' | 'none'> {
  if (sub.status !== 'trialing') return 'none';
  const stripe = stripeOf(deps);
  const pmId = sub.default_payment_method;
  const pm = pmId ? (typeof pmId === 'string' ? await stripe.paymentMethods.retrieve(pmId) : pmId) : null;
  const fingerprint = fingerprintOf(pm);
  if (!fingerprint) return 'none';
  const owner = await trialTenantOf(deps, fingerprint);
  if (owner === null || owner === tenantId) {
    await claimTrialCard(deps, tenantId, fingerprint);
    return 'claimed';
  }
  await stripe.subscriptions.update(
    sub.id,
    { trial_end: 'now', proration_behavior: 'none' },
    { idempotencyKey: `helix-trial-card-used-${sub.id}` },
  );
  await markTrialUsed(deps, tenantId);
  return 'ended';
}
