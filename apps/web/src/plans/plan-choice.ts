import type { SubscriptionState } from '@helix/shared/subscription-state';
import { planAmountCents } from '@helix/shared/plan-price';
import { isDynamicQuantity, planPeriod, type Plan } from './plan-display';

/** The card's choice button (accounts 2; Downgrade added by issue 15, so the label is truthful). */
type PlanButtonLabel = 'Upgrade' | 'Downgrade' | 'Selected' | 'Try for Free' | 'Select';

export interface PlanChoiceContext {
  /** The plan the tenant holds while it is in force, else null. */
  currentPlanId: number | null;
  /** The plan picked on this page, else null. */
  selectedId: number | null;
  /** The 30-day trial has not passed for this tenant (a visitor always has it). */
  trialAvailable: boolean;
  /** A cancellation is pending: every plan button is disabled until the plan ends or is renewed. */
  cancellationPending: boolean;
  /** The live subscription's seats (its quantity), for comparing prices; else the plan's default. */
  currentSeats?: number | null;
  /** The viewer may not pay or change the plan (not the owner): every plan button is disabled. */
  readOnly?: boolean;
}

/** Seats a change to `plan` would have: the server carries them over to a plan that sells seats. */
const seatsOnChange = (plan: Plan, currentSeats: number | null | undefined): number =>
  isDynamicQuantity(plan) ? Math.max(plan.userLimit, currentSeats ?? plan.userLimit) : plan.userLimit;

/** Cents per month of an order, so a monthly and an annual plan compare (the server's rule for direction). */
const perMonth = (plan: Plan, seats: number): number =>
  planAmountCents(plan, seats) / (planPeriod(plan) === 'YEARLY' ? 12 : 1);

/**
 * Whether moving from the current plan to `plan` costs more (upgrade) or less (downgrade) per month,
 * as the server's preview decides `direction`; null when the price is the same.
 */
export function planDirection(
  plan: Plan,
  current: Plan,
  currentSeats: number | null | undefined,
): 'upgrade' | 'downgrade' | null {
  const next = perMonth(plan, seatsOnChange(plan, currentSeats));
  const now = perMonth(current, currentSeats ?? current.userLimit);
  if (next > now) return 'upgrade';
  if (next < now) return 'downgrade';
  return null;
}

export interface PlanButton {
  label: PlanButtonLabel;
  disabled: boolean;
}

/**
 * Selected: the plan picked here, or the current plan while nothing else is picked. Upgrade or
 * Downgrade: another plan for a tenant that holds one, by the price per month (Select when it costs
 * the same; Upgrade when the current plan is not known here). Try for Free: while the trial is open.
 * Select: otherwise.
 */
export function planButton(
  plan: Pick<Plan, 'id'> | Plan,
  ctx: PlanChoiceContext,
  current?: Plan,
): PlanButton {
  const picked = ctx.selectedId ?? ctx.currentPlanId;
  const label: PlanButtonLabel =
    plan.id === picked
      ? 'Selected'
      : ctx.currentPlanId !== null
        ? changeLabel(plan, ctx, current)
        : ctx.trialAvailable
          ? 'Try for Free'
          : 'Select';
  return {
    label,
    disabled: ctx.cancellationPending || Boolean(ctx.readOnly) || plan.id === ctx.currentPlanId,
  };
}

function changeLabel(plan: Pick<Plan, 'id'> | Plan, ctx: PlanChoiceContext, current?: Plan): PlanButtonLabel {
  if (!current || !('firstTierPrice' in plan)) return 'Upgrade';
  const direction = planDirection(plan, current, ctx.currentSeats);
  return direction === 'downgrade' ? 'Downgrade' : direction === 'upgrade' ? 'Upgrade' : 'Select';
}

/** The plan the tenant holds while it is in force (a deactivated plan is no longer "current"). */
export const currentPlanId = (state: SubscriptionState, planId: number | null | undefined): number | null =>
  state.inForce && planId !== null && planId !== undefined ? planId : null;

/** What Buy Now does for this buyer. */
export type BuyAction =
  | { kind: 'select-first' }
  | { kind: 'sign-up' }
  | { kind: 'change-plan' }
  | { kind: 'pay'; flow: 'trial' | 'card' }
  | { kind: 'none' };

export function buyAction(plan: Pick<Plan, 'id'>, ctx: PlanChoiceContext & { signedIn: boolean }): BuyAction {
  if (ctx.selectedId !== plan.id) return { kind: 'select-first' };
  if (!ctx.signedIn) return { kind: 'sign-up' };
  if (ctx.cancellationPending || plan.id === ctx.currentPlanId) return { kind: 'none' };
  if (ctx.currentPlanId !== null) return { kind: 'change-plan' };
  return { kind: 'pay', flow: ctx.trialAvailable ? 'trial' : 'card' };
}
