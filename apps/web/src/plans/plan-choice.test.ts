import { describe, expect, it } from 'vitest';
import { deriveSubscriptionState } from '@helix/shared/subscription-state';
import { buyAction, currentPlanId, planButton, type PlanChoiceContext } from './plan-choice';

const visitor: PlanChoiceContext = {
  currentPlanId: null,
  selectedId: null,
  trialAvailable: true,
  cancellationPending: false,
};
const subscriber: PlanChoiceContext = { ...visitor, currentPlanId: 8, trialAvailable: false };

describe('plan button labels', () => {
  it('offers the trial while it has not passed, else Select', () => {
    expect(planButton({ id: 7 }, visitor)).toEqual({ label: 'Try for Free', disabled: false });
    expect(planButton({ id: 7 }, { ...visitor, trialAvailable: false }).label).toBe('Select');
  });
  it('marks the picked plan Selected', () => {
    expect(planButton({ id: 7 }, { ...visitor, selectedId: 7 }).label).toBe('Selected');
    expect(planButton({ id: 8 }, { ...visitor, selectedId: 7 }).label).toBe('Try for Free');
  });
  it('shows the current plan as Selected (disabled) and the others as Upgrade', () => {
    expect(planButton({ id: 8 }, subscriber)).toEqual({ label: 'Selected', disabled: true });
    expect(planButton({ id: 13 }, subscriber)).toEqual({ label: 'Upgrade', disabled: false });
  });
  it('disables every plan while a cancellation is pending', () => {
    const pending = { ...subscriber, cancellationPending: true };
    expect(planButton({ id: 13 }, pending)).toEqual({ label: 'Upgrade', disabled: true });
  });
});

describe('Buy Now', () => {
  it('asks to select a plan first', () => {
    expect(buyAction({ id: 7 }, { ...visitor, signedIn: true })).toEqual({ kind: 'select-first' });
    expect(buyAction({ id: 7 }, { ...visitor, selectedId: 8, signedIn: true }).kind).toBe('select-first');
  });
  it('sends a visitor without an account to sign up', () => {
    expect(buyAction({ id: 7 }, { ...visitor, selectedId: 7, signedIn: false }).kind).toBe('sign-up');
  });
  it('starts the trial, or the card checkout once the trial has passed', () => {
    expect(buyAction({ id: 7 }, { ...visitor, selectedId: 7, signedIn: true })).toEqual({
      kind: 'pay',
      flow: 'trial',
    });
    expect(
      buyAction({ id: 7 }, { ...visitor, trialAvailable: false, selectedId: 7, signedIn: true }),
    ).toEqual({ kind: 'pay', flow: 'card' });
  });
  it('changes the plan of a subscriber, and does nothing for the current plan', () => {
    expect(buyAction({ id: 13 }, { ...subscriber, selectedId: 13, signedIn: true }).kind).toBe('change-plan');
    expect(buyAction({ id: 8 }, { ...subscriber, selectedId: 8, signedIn: true }).kind).toBe('none');
  });
});

describe('current plan', () => {
  it('is the plan in force only', () => {
    const active = deriveSubscriptionState({ status: 'active', activePayment: true, hasPlan: true });
    const gone = deriveSubscriptionState({ status: 'deactivated', activePayment: false, hasPlan: true });
    expect(currentPlanId(active, 8)).toBe(8);
    expect(currentPlanId(gone, 8)).toBeNull();
  });
});
