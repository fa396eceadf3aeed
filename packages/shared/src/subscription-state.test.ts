import { describe, expect, it } from 'vitest';
import {
  deriveSubscriptionState,
  sessionSubscriptionState,
  TRIAL_GRACE_MS,
  type StoredSubscription,
} from './subscription-state.ts';

const now = new Date('2026-06-15T12:00:00Z');
const DAY = 86_400_000;
const at = (ms: number) => new Date(now.getTime() + ms);
const sub = (over: Partial<StoredSubscription>): StoredSubscription => ({
  status: 'active',
  activePayment: true,
  hasPlan: true,
  ...over,
});

describe('deriveSubscriptionState, state by state', () => {
  it('not subscribed: no row, no plan, none, incomplete', () => {
    for (const s of [
      null,
      sub({ hasPlan: false }),
      sub({ status: 'none' }),
      sub({ status: 'incomplete', activePayment: false }),
    ]) {
      expect(deriveSubscriptionState(s, now)).toMatchObject({
        kind: 'not_subscribed',
        inForce: false,
        banner: null,
      });
    }
  });

  it('trial: in force until its end (plus the grace for the webhook), then deactivated', () => {
    const trial = sub({ status: 'trialing', trialEnd: at(10 * DAY) });
    expect(deriveSubscriptionState(trial, now)).toMatchObject({
      kind: 'trial',
      inForce: true,
      trialEnd: now.getTime() + 10 * DAY,
      banner: null,
    });
    expect(
      deriveSubscriptionState(sub({ status: 'trialing', trialEnd: at(-TRIAL_GRACE_MS + 1000) }), now).inForce,
    ).toBe(true);
    expect(
      deriveSubscriptionState(sub({ status: 'trialing', trialEnd: at(-TRIAL_GRACE_MS - 1000) }), now),
    ).toMatchObject({
      kind: 'deactivated',
      inForce: false,
    });
  });

  it('subscribed: active and paid', () => {
    expect(deriveSubscriptionState(sub({}), now)).toMatchObject({
      kind: 'subscribed',
      inForce: true,
      banner: null,
    });
  });

  it('payment failed: in force with the banner while Stripe retries', () => {
    expect(deriveSubscriptionState(sub({ status: 'past_due', activePayment: false }), now)).toMatchObject({
      kind: 'payment_failed',
      inForce: true,
      banner: 'payment_failed',
    });
    expect(deriveSubscriptionState(sub({ activePayment: false }), now).kind).toBe('payment_failed');
  });

  it('cancelled with end date: in force until the end date, then deactivated', () => {
    const cancelled = sub({ status: 'canceled', canceledAt: at(-DAY), cancelAt: at(5 * DAY) });
    expect(deriveSubscriptionState(cancelled, now)).toMatchObject({
      kind: 'cancelled',
      inForce: true,
      banner: 'cancelled',
      canceledAt: now.getTime() - DAY,
      cancelAt: now.getTime() + 5 * DAY,
    });
    expect(deriveSubscriptionState(cancelled, at(6 * DAY))).toMatchObject({
      kind: 'deactivated',
      inForce: false,
    });
    expect(deriveSubscriptionState(sub({ status: 'canceled', cancelAt: null }), now).kind).toBe(
      'deactivated',
    );
  });

  it('deactivated: never in force', () => {
    expect(deriveSubscriptionState(sub({ status: 'deactivated', activePayment: false }), now)).toMatchObject({
      kind: 'deactivated',
      inForce: false,
      banner: 'deactivated',
    });
  });

  it('reads unix seconds from the session user as the server reads Dates', () => {
    const seconds = Math.floor(now.getTime() / 1000);
    const state = sessionSubscriptionState(
      {
        status: 'canceled',
        activePayment: true,
        trialEnd: null,
        cancelAt: seconds + 3600,
        canceledAt: seconds - 60,
        planId: 8,
      },
      now,
    );
    expect(state).toMatchObject({ kind: 'cancelled', inForce: true, cancelAt: (seconds + 3600) * 1000 });
    expect(
      sessionSubscriptionState(
        { status: 'active', activePayment: true, trialEnd: null, cancelAt: null, planId: null },
        now,
      ).kind,
    ).toBe('not_subscribed');
  });
});
