import { describe, expect, it } from 'vitest';
import { deriveSubscriptionState } from '@helix/shared/subscription-state';
import { buyAction, currentPlanId, planButton, planDirection, type PlanChoiceContext } from './plan-choice';
import { aPlan } from './plan-fixtures';

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
  it('says Downgrade for a cheaper plan, at the seats the subscription has', () => {
    const individual = aPlan({
      id: 7,
      name: 'Individual Monthly',
      family: 'individual',
      firstTierPrice: 12,
      price: 12,
      userLimit: 1,
      dynamicQuantity: 'false',
    });
    const educator = aPlan();
    const enterprise = aPlan({
      id: 13,
      name: 'Enterprise Monthly',
      family: 'enterprise',
      firstTierPrice: 400,
      price: 8,
      userLimit: 50,
    });
    expect(planButton(individual, subscriber, educator).label).toBe('Downgrade');
    expect(planButton(enterprise, subscriber, educator).label).toBe('Upgrade');
    expect(planButton(enterprise, { ...subscriber, currentPlanId: 13 }, enterprise).label).toBe('Selected');
    expect(planButton(educator, { ...subscriber, currentPlanId: 13 }, enterprise).label).toBe('Downgrade');
  });
  it('compares an annual plan per month', () => {
    const monthly = aPlan();
    const annual = aPlan({
      id: 10,
      displayPlantype: 'YEARLY',
      planType: 'YEARLY',
      firstTierPrice: 99 * 12 * 0.85,
      price: 9 * 12 * 0.85,
    });
    expect(planDirection(annual, monthly, 11)).toBe('downgrade');
    expect(planDirection(monthly, annual, 11)).toBe('upgrade');
    // Carried seats: Educator x11 costs more than Educator x10.
    expect(planDirection(monthly, monthly, 11)).toBeNull();
  });
  it('disables every button for a user who may not pay (not the owner)', () => {
    expect(planButton({ id: 13 }, { ...subscriber, readOnly: true }).disabled).toBe(true);
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
