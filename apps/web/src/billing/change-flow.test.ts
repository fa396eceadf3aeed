import { describe, expect, it } from 'vitest';
import { showsApplied, waitForChangeApplied } from './change-flow';

const summary = (
  over: Partial<{
    pendingChange: { planId: number | null; seats: number } | null;
    planId: number | null;
    seats: number | null;
  }> = {},
) => ({
  pendingChange: null,
  planId: 8,
  seats: 10,
  ...over,
});

describe('a change shows as applied', () => {
  it('only once nothing waits and the summary names the new plan and seats', () => {
    const expected = { planId: 13, seats: 50 };
    expect(showsApplied(summary({ pendingChange: { planId: 13, seats: 50 } }), expected)).toBe(false);
    // Stripe dropped the pending update, the webhook has not updated Helix's record yet.
    expect(showsApplied(summary(), expected)).toBe(false);
    expect(showsApplied(summary({ planId: 13, seats: 50 }), expected)).toBe(true);
    expect(showsApplied(summary({ planId: 8, seats: 12 }), { planId: 8, seats: 12 })).toBe(true);
    expect(showsApplied(summary())).toBe(true);
  });

  it('answers the settled summary, or null when the time is up', async () => {
    const done = summary({ planId: 13, seats: 50 });
    expect(await waitForChangeApplied({ planId: 13, seats: 50 }, 0, async () => done)).toBe(done);
    expect(await waitForChangeApplied({ planId: 13, seats: 50 }, 0, async () => summary())).toBeNull();
  });
});
