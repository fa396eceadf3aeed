/**
 * The one answer to "what is this tenant's subscription state, and is its plan in force?" (accounts 4,
 * "Subscription states"). The server derives it from the stored copy of Stripe's subscription
 * (packages/server/src/billing/subscription-state.ts); the web from the session user's `subscription`
 * (guards and banners). Both call `deriveSubscriptionState`, so they cannot disagree.
 *
 * Decisions (apps/api/BILLING-API.md):
 * - A trial is in force until its end plus TRIAL_GRACE_MS (1 hour): Stripe ends a trial by turning the
 *   subscription active (or past_due); until its webhook or the reconcile job lands, the stored
 *   status still says trialing, and a classroom must not lose its models in that gap.
 * - Payment failed (past_due, activePayment false) keeps the plan in force (embeds and shared links
 *   keep working) with the payment-failed banner while Stripe retries. When Stripe gives up it
 *   cancels the subscription (or marks it unpaid): the tenant is deactivated.
 * - Cancelled with an end date is in force until that date, then deactivated.
 */

export const SUBSCRIPTION_STORED_STATUSES = [
  'none',
  'trialing',
  'active',
  'canceled',
  'deactivated',
  'past_due',
  'incomplete',
] as const;
export type StoredSubscriptionStatus = (typeof SUBSCRIPTION_STORED_STATUSES)[number];

type SubscriptionStateKind =
  'not_subscribed' | 'trial' | 'subscribed' | 'cancelled' | 'deactivated' | 'payment_failed';

/** A trial's stored status outlives its end by at most this while Stripe's word is on its way. */
export const TRIAL_GRACE_MS = 60 * 60 * 1000;

/** A time as stored (Date on the server) or presented (unix seconds in the session user). */
type Instant = Date | number | null | undefined;

export interface StoredSubscription {
  status: StoredSubscriptionStatus;
  activePayment: boolean;
  trialEnd?: Instant;
  cancelAt?: Instant;
  canceledAt?: Instant;
  /** Whether the tenant has a plan (a subscription without one is "not subscribed"). */
  hasPlan: boolean;
}

export interface SubscriptionState {
  kind: SubscriptionStateKind;
  /** The plan's features and models are available (guards, permissions, views, embeds). */
  inForce: boolean;
  /** Unix milliseconds, or null. */
  trialEnd: number | null;
  cancelAt: number | null;
  canceledAt: number | null;
  /** Which of the three banners of accounts 8 to show. */
  banner: 'payment_failed' | 'deactivated' | 'cancelled' | null;
}

/** Milliseconds of a Date or unix seconds. */
function instantMs(value: Instant): number | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.getTime() : value * 1000;
}

export function deriveSubscriptionState(
  sub: StoredSubscription | null | undefined,
  now: Date | number = Date.now(),
): SubscriptionState {
  const nowMs = now instanceof Date ? now.getTime() : now;
  const trialEnd = instantMs(sub?.trialEnd);
  const cancelAt = instantMs(sub?.cancelAt);
  const canceledAt = instantMs(sub?.canceledAt);
  const state = (
    kind: SubscriptionStateKind,
    inForce: boolean,
    banner: SubscriptionState['banner'] = null,
  ) => ({
    kind,
    inForce,
    trialEnd,
    cancelAt,
    canceledAt,
    banner,
  });
  if (!sub?.hasPlan) return state('not_subscribed', false);
  switch (sub.status) {
    case 'none':
    case 'incomplete':
      return state('not_subscribed', false);
    case 'trialing':
      return trialEnd === null || nowMs < trialEnd + TRIAL_GRACE_MS
        ? state('trial', true)
        : state('deactivated', false, 'deactivated');
    case 'active':
      return sub.activePayment ? state('subscribed', true) : state('payment_failed', true, 'payment_failed');
    case 'past_due':
      return state('payment_failed', true, 'payment_failed');
    case 'canceled':
      if (cancelAt !== null && nowMs < cancelAt) {
        return sub.activePayment
          ? state('cancelled', true, 'cancelled')
          : state('payment_failed', true, 'payment_failed');
      }
      return state('deactivated', false, 'deactivated');
    case 'deactivated':
      return state('deactivated', false, 'deactivated');
  }
}

/** The state of a session user's `subscription` (unix seconds), for the web's guards and banners. */
export function sessionSubscriptionState(
  sub:
    | {
        status: StoredSubscriptionStatus;
        activePayment: boolean;
        trialEnd: number | null;
        cancelAt: number | null;
        canceledAt?: number | null;
        planId: number | null;
      }
    | null
    | undefined,
  now: Date | number = Date.now(),
): SubscriptionState {
  return deriveSubscriptionState(sub ? { ...sub, hasPlan: sub.planId !== null } : null, now);
}
