import { describe, expect, it } from 'vitest';
import {
  BILLED_STATUSES,
  ENDED_STATUSES,
  HOLDING_STATUSES,
  LIVE_STRIPE_STATUSES,
  PAID_OR_TRIALING,
} from './stripe-statuses.ts';

describe('Stripe statuses', () => {
  it('names each subset: live holds incomplete, holding does not, billed leaves paused out', () => {
    expect([...PAID_OR_TRIALING].sort()).toEqual(['active', 'trialing']);
    expect([...BILLED_STATUSES].sort()).toEqual(['active', 'past_due', 'trialing', 'unpaid']);
    expect([...HOLDING_STATUSES].sort()).toEqual(['active', 'past_due', 'paused', 'trialing', 'unpaid']);
    expect([...LIVE_STRIPE_STATUSES].sort()).toEqual([
      'active',
      'incomplete',
      'past_due',
      'paused',
      'trialing',
      'unpaid',
    ]);
    expect([...ENDED_STATUSES].sort()).toEqual(['canceled', 'incomplete_expired']);
    for (const s of ENDED_STATUSES) expect(LIVE_STRIPE_STATUSES.has(s)).toBe(false);
  });
});
