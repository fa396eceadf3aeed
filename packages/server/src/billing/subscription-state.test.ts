import { describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import { storedFromStripe, subscriptionState } from './subscription-state.ts';

const T = 1_800_000_000;
const sub = (over: Partial<Stripe.Subscription>): Stripe.Subscription =>
  ({
    id: 'sub_1',
    status: 'active',
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    trial_start: null,
    trial_end: null,
    items: { data: [{ quantity: 12, current_period_start: T, current_period_end: T + 2_592_000 }] },
    ...over,
  }) as unknown as Stripe.Subscription;

describe("storedFromStripe: Stripe's subscription to the stored state", () => {
  it('maps every status', () => {
    expect(storedFromStripe(sub({ status: 'trialing', trial_end: T + 100 }))).toMatchObject({
      status: 'trialing',
      activePayment: true,
      trialEnd: new Date((T + 100) * 1000),
      userLimit: 12,
      live: true,
    });
    expect(storedFromStripe(sub({}))).toMatchObject({ status: 'active', activePayment: true });
    expect(storedFromStripe(sub({}), true)).toMatchObject({ status: 'active', activePayment: false });
    expect(storedFromStripe(sub({ status: 'past_due' }))).toMatchObject({
      status: 'past_due',
      activePayment: false,
    });
    expect(storedFromStripe(sub({ status: 'incomplete' }))).toMatchObject({
      status: 'incomplete',
      activePayment: false,
    });
    expect(storedFromStripe(sub({ status: 'canceled', canceled_at: T }))).toMatchObject({
      status: 'deactivated',
      activePayment: true,
      live: false,
    });
    expect(storedFromStripe(sub({ status: 'canceled' }), true).activePayment).toBe(false);
    for (const status of ['unpaid', 'incomplete_expired', 'paused'] as const) {
      expect(storedFromStripe(sub({ status }))).toMatchObject({
        status: 'deactivated',
        activePayment: false,
      });
    }
  });

  it('cancel at period end is "cancelled with end date" until the period ends', () => {
    const stored = storedFromStripe(sub({ cancel_at_period_end: true, canceled_at: T + 10 }));
    expect(stored).toMatchObject({
      status: 'canceled',
      cancelAt: new Date((T + 2_592_000) * 1000),
      canceledAt: new Date((T + 10) * 1000),
    });
    const row = { ...stored, planId: 8 };
    expect(subscriptionState(row, new Date((T + 20) * 1000))).toMatchObject({
      kind: 'cancelled',
      inForce: true,
    });
    expect(subscriptionState(row, new Date((T + 2_592_001) * 1000))).toMatchObject({
      kind: 'deactivated',
      inForce: false,
    });
  });

  it('a row without a plan is not subscribed whatever its status', () => {
    expect(subscriptionState({ status: 'active', activePayment: true, planId: null }).kind).toBe(
      'not_subscribed',
    );
    expect(subscriptionState({ status: 'active', activePayment: true, plan: null, planId: 8 }).kind).toBe(
      'not_subscribed',
    );
  });
});
