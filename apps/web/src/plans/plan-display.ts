import { MSG } from '@helix/shared';
import { firstTierPerSeat, planAmountCents } from '@helix/shared/plan-price';
import { PlanView } from '@helix/shared/schemas/plan';

/** A catalogue plan exactly as the API presents it (shared schema; the web keeps no copy of its own). */
export type Plan = PlanView;

export type Period = 'MONTHLY' | 'YEARLY';

/** Trial length (accounts 9). */
export const TRIAL_DAYS = 30;

const PlanList = PlanView.array();

/** Parses the plan list answer; a malformed answer is a failure to load, not an empty catalogue. */
export const toPlanList = (answer: unknown): Plan[] => PlanList.parse(answer);

export const planPeriod = (plan: Pick<Plan, 'displayPlantype'>): Period =>
  plan.displayPlantype === 'YEARLY' ? 'YEARLY' : 'MONTHLY';

export const isDynamicQuantity = (plan: Pick<Plan, 'dynamicQuantity'>): boolean =>
  plan.dynamicQuantity === 'true';

/** Rounds to whole cents, so 99 + 2 x 9.1 never shows as 117.19999999. */
const cents = (amount: number): number => Math.round(amount * 100) / 100;

/**
 * Plan price in dollars = firstTierPrice + extra users x the per-user price (accounts 9), computed by
 * the shared rule the server bills with, so the card shows what Stripe charges.
 */
export const planPrice = (plan: Plan, quantity: number): number => planAmountCents(plan, quantity) / 100;

/** The user count a card starts with: the plan's userLimit (at least 1). */
export const defaultQuantity = (plan: Pick<Plan, 'userLimit'>): number => Math.max(1, plan.userLimit);

/** '$99', '$1,009.80': whole dollars without needless cents, thousands grouped. */
export function formatUsd(amount: number): string {
  const whole = Number.isInteger(cents(amount));
  return `$${cents(amount).toLocaleString('en-US', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  })}`;
}

/** The price tooltip: first-tier cost per included user, to 3 decimals (accounts 2). */
export const perUserCost = (plan: Plan): string => firstTierPerSeat(plan);

/** '1,009.80': the payment form's amount (accounts 2, 'charged $ {amount} per year or month'). */
const amountText = (amount: number): string =>
  cents(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The payment form's charge line, by the plan's displayType. */
export const chargeText = (plan: Plan, quantity: number): string =>
  MSG.chargedPer(amountText(planPrice(plan, quantity)), planPeriod(plan) === 'YEARLY' ? 'year' : 'month');

/** The amount for Stripe's wallet sheet: cents, rounded (accounts 9). */
export const toCents = (amount: number): number => Math.round(amount * 100);

export const plansFor = (plans: readonly Plan[], period: Period): Plan[] =>
  plans.filter((plan) => planPeriod(plan) === period).sort((a, b) => a.firstTierPrice - b.firstTierPrice);

/** The same family's plan in the other period, so the toggle keeps the buyer's choice. */
export const counterpart = (plans: readonly Plan[], plan: Plan, period: Period): Plan | undefined =>
  plans.find((p) => p.family === plan.family && planPeriod(p) === period);
