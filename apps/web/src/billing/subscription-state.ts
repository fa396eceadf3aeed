import {
  deriveSubscriptionState,
  SUBSCRIPTION_STORED_STATUSES,
  type StoredSubscriptionStatus,
  type SubscriptionState,
} from '@helix/shared/subscription-state';
import type { SessionSubscription } from '@helix/shared/schemas/session';

const isStoredStatus = (status: string): status is StoredSubscriptionStatus =>
  (SUBSCRIPTION_STORED_STATUSES as readonly string[]).includes(status);

/**
 * The session user's subscription state through the shared module, the same answer the server gives
 * (trialing counts as subscribed; a failed payment keeps the plan while Stripe retries). An unknown
 * status from an old cookie counts as not subscribed until /user/info refreshes it.
 */
export function sessionSubscriptionState(
  subscription: SessionSubscription | null | undefined,
  now: number = Date.now(),
): SubscriptionState {
  if (!subscription) return deriveSubscriptionState(null, now);
  return deriveSubscriptionState(
    {
      status: isStoredStatus(subscription.status) ? subscription.status : 'none',
      activePayment: subscription.activePayment,
      trialEnd: subscription.trialEnd,
      cancelAt: subscription.cancelAt,
      canceledAt: subscription.canceledAt ?? null,
      hasPlan: subscription.planId !== null,
    },
    now,
  );
}

/** The trial is still open to this tenant (accounts 4: the trial flow runs while it has not passed). */
export const trialAvailable = (subscription: SessionSubscription | null | undefined): boolean =>
  !subscription?.isTrialPassed;

/** A cancellation is pending: the plan runs to its end date and plan buttons are disabled (accounts 2). */
export const cancellationPending = (state: SubscriptionState): boolean => state.kind === 'cancelled';
