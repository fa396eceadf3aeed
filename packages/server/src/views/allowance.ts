import type { Plan, TenantSubscription } from '../db.ts';
import { planInForce } from '../billing/subscription-state.ts';

/** What the view rules read of a plan (a Plan row has it all). */
export type PlanLimits = Pick<Plan, 'viewLimit' | 'unlimitedViews' | 'additionalViewsPrice'>;

/** What the view and plan rules read of a subscription (a TenantSubscription row with its plan has it all). */
export type SubscriptionWithPlan = Pick<
  TenantSubscription,
  | 'status'
  | 'activePayment'
  | 'trialEnd'
  | 'cancelAt'
  | 'currentPeriodStart'
  | 'currentPeriodEnd'
  | 'additionalViews'
> & { plan: PlanLimits | null };

export interface TenantPlanContext {
  id: number;
  isPlatform: boolean;
  subscription: SubscriptionWithPlan | null;
  branding: { additionalViewsValidation: boolean } | null;
}

/**
 * A tenant may show models while its plan is in force (the one subscription state,
 * billing/subscription-state.ts). The platform tenant needs no plan.
 */
export function hasActivePlan(tenant: TenantPlanContext, now = new Date()): boolean {
  if (tenant.isPlatform) return true;
  return planInForce(tenant.subscription, now);
}

export interface BillingPeriod {
  start: Date;
  end: Date;
  /** Days (YYYY-MM-DD, UTC) counted in the period: firstDay <= day < endDay. */
  firstDay: string;
  endDay: string;
}

export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

/**
 * The tenant's current billing period: the subscription's (synchronised from Stripe) when it holds
 * now, else the calendar month (UTC). Views are counted per day, so the day a Stripe period changes
 * belongs to the new period.
 */
export function billingPeriod(
  sub: Pick<TenantSubscription, 'currentPeriodStart' | 'currentPeriodEnd'> | null,
  now = new Date(),
): BillingPeriod {
  let start: Date;
  let end: Date;
  if (
    sub?.currentPeriodStart &&
    sub.currentPeriodEnd &&
    sub.currentPeriodStart <= now &&
    now < sub.currentPeriodEnd
  ) {
    start = sub.currentPeriodStart;
    end = sub.currentPeriodEnd;
  } else {
    start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  }
  return { start, end, firstDay: dayOf(start), endDay: dayOf(end) };
}

export interface ViewAllowance {
  /** The plan's views per period; 0 = unlimited. */
  viewLimit: number;
  /** Purchased additional views in the current period. */
  additionalViews: number;
  /** viewLimit + additionalViews, or 0 when unlimited (no plan limit, the unlimitedViews flag, the platform). */
  limit: number;
  /** Refuse loads past `stopAt` (the tenant's additionalViewsValidation). */
  refuseOverLimit: boolean;
  /** Views served past `limit` before refusing (VIEW_GRACE_PERCENT of viewLimit, rounded up); 0 when unlimited. */
  grace: number;
  /**
   * `limit` + `grace`: the count past which loads are refused when refuseOverLimit; 0 when unlimited.
   * (Not the per-address ceiling of a link, ViewLoad.ceiling.)
   */
  stopAt: number;
  additionalViewsPrice: number;
}

/** VIEW_GRACE_PERCENT's default. */
export const DEFAULT_VIEW_GRACE_PERCENT = 10;

/**
 * The tenant's views for the period. Past 100% (`limit`) a grace band keeps the viewer working so a
 * lesson is not cut off the moment the allowance runs out; with additionalViewsValidation on, loads
 * past the band are refused (the embed shows the limit panel). With it off, nothing is refused: the
 * views past `limit` are reported as additional views used, as before.
 */
export function viewAllowance(
  tenant: TenantPlanContext,
  gracePercent = DEFAULT_VIEW_GRACE_PERCENT,
): ViewAllowance {
  const plan = tenant.subscription?.plan ?? null;
  const unlimited = tenant.isPlatform || !plan || plan.viewLimit <= 0 || plan.unlimitedViews;
  const viewLimit = unlimited ? 0 : plan.viewLimit;
  const additionalViews = Math.max(0, tenant.subscription?.additionalViews ?? 0);
  const grace = unlimited ? 0 : Math.ceil((viewLimit * Math.max(0, gracePercent)) / 100);
  return {
    viewLimit,
    additionalViews,
    limit: unlimited ? 0 : viewLimit + additionalViews,
    refuseOverLimit: !unlimited && Boolean(tenant.branding?.additionalViewsValidation),
    grace,
    stopAt: unlimited ? 0 : viewLimit + additionalViews + grace,
    additionalViewsPrice: plan?.additionalViewsPrice ?? 0,
  };
}

/** administration-content 9: view count minus viewLimit when at or above it (viewLimit > 0), else 0. */
export const additionalViewsUsed = (viewCount: number, viewLimit: number): number =>
  viewLimit > 0 && viewCount >= viewLimit ? viewCount - viewLimit : 0;
