import {
  deriveSubscriptionState,
  type StoredSubscriptionStatus,
  type SubscriptionState,
} from '@helix/shared/subscription-state';
import type Stripe from 'stripe';
import { LIVE_STRIPE_STATUSES } from './stripe-statuses.ts';

/**
 * The server half of the subscription state (the shared half is @helix/shared/subscription-state):
 * - `subscriptionState(stored)`: the state of a stored TenantSubscription row; every "is this plan in
 *   force?" (permissions, view allowance, embeds, the session user) goes through it;
 * - `storedFromStripe(subscription)`: what we store of a Stripe subscription, so the stored copy is a
 *   pure function of what Stripe says (webhooks and the reconcile job both converge with it).
 */

/** What the state reads of a TenantSubscription row. */
export interface StoredSubscriptionRow {
  status: StoredSubscriptionStatus;
  activePayment: boolean;
  trialEnd?: Date | null;
  cancelAt?: Date | null;
  canceledAt?: Date | null;
  planId?: number | null;
  plan?: unknown;
}

export function subscriptionState(
  row: StoredSubscriptionRow | null | undefined,
  now: Date = new Date(),
): SubscriptionState {
  if (!row) return deriveSubscriptionState(null, now);
  const hasPlan =
    row.plan !== undefined ? row.plan !== null : row.planId !== null && row.planId !== undefined;
  return deriveSubscriptionState({ ...row, hasPlan }, now);
}

export const planInForce = (row: StoredSubscriptionRow | null | undefined, now?: Date): boolean =>
  subscriptionState(row, now).inForce;

/** The stored fields that follow Stripe's subscription. */
export interface StoredFromStripe {
  status: StoredSubscriptionStatus;
  activePayment: boolean;
  trialEnd: Date | null;
  cancelAt: Date | null;
  canceledAt: Date | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  /** Seats (the plan item's quantity). */
  userLimit: number;
  /** Whether the subscription is live (a tenant has at most one). */
  live: boolean;
}

const date = (unix: number | null | undefined): Date | null => (unix ? new Date(unix * 1000) : null);

/**
 * Stripe's subscription to our stored state (API 2026-10-28: the period lives on the subscription
 * item). `paymentFailed` says whether the latest invoice's payment failed (an open invoice with at
 * least one attempt), which decides activePayment of an active-but-cancelling or a deactivated plan.
 * - trialing: trial (activePayment true: nothing is owed);
 * - active: subscribed, or "cancelled with end date" when cancel_at_period_end / cancel_at is set;
 * - past_due: payment failed (activePayment false), still in force while Stripe retries;
 * - canceled, unpaid, incomplete_expired, paused: deactivated (Stripe gave up or the plan ended);
 * - incomplete: a card checkout waiting for its first payment (not subscribed yet).
 */
export function storedFromStripe(sub: Stripe.Subscription, paymentFailed = false): StoredFromStripe {
  const item = sub.items.data[0];
  const cancelAtUnix =
    sub.cancel_at ?? (sub.cancel_at_period_end ? (item?.current_period_end ?? null) : null);
  const base = {
    trialEnd: date(sub.trial_end),
    cancelAt: date(cancelAtUnix),
    canceledAt: date(sub.canceled_at),
    currentPeriodStart: date(item?.current_period_start),
    currentPeriodEnd: date(item?.current_period_end),
    userLimit: item?.quantity ?? 1,
    live: LIVE_STRIPE_STATUSES.has(sub.status),
  };
  switch (sub.status) {
    case 'trialing':
      return { ...base, status: cancelAtUnix ? 'canceled' : 'trialing', activePayment: true };
    case 'active':
      return { ...base, status: cancelAtUnix ? 'canceled' : 'active', activePayment: !paymentFailed };
    case 'past_due':
      return { ...base, status: 'past_due', activePayment: false };
    case 'incomplete':
      return { ...base, status: 'incomplete', activePayment: false };
    case 'canceled':
      return { ...base, status: 'deactivated', activePayment: !paymentFailed };
    default: // unpaid, incomplete_expired, paused and any status a later API version adds
      return { ...base, status: 'deactivated', activePayment: false };
  }
}
