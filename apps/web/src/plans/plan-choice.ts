import type { SubscriptionState } from '@helix/shared/subscription-state';
import type { Plan } from './plan-display';

/** The card's choice button (accounts 2). */
export type PlanButtonLabel = 'Upgrade' | 'Selected' | 'Try for Free' | 'Select';

export interface PlanChoiceContext {
  /** The plan the tenant holds while it is in force, else null. */
  currentPlanId: number | null;
  /** The plan picked on this page, else null. */
  selectedId: number | null;
  /** The 30-day trial has not passed for this tenant (a visitor always has it). */
  trialAvailable: boolean;
  /** A cancellation is pending: every plan button is disabled until the plan ends or is renewed. */
  cancellationPending: boolean;
}

export interface PlanButton {
  label: PlanButtonLabel;
  disabled: boolean;
}

/**
 * Selected: the plan picked here, or the current plan while nothing else is picked. Upgrade: another
 * plan for a tenant that holds one. Try for Free: while the trial is open. Select: otherwise.
 */
export function planButton(plan: Pick<Plan, 'id'>, ctx: PlanChoiceContext): PlanButton {
  const picked = ctx.selectedId ?? ctx.currentPlanId;
  const label: PlanButtonLabel =
    plan.id === picked
      ? 'Selected'
      : ctx.currentPlanId !== null
        ? 'Upgrade'
        : ctx.trialAvailable
          ? 'Try for Free'
          : 'Select';
  return { label, disabled: ctx.cancellationPending || plan.id === ctx.currentPlanId };
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
