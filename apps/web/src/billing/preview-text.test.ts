import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { confirmLabel, dueNowText, nextChargeText } from './preview-text';

const base = { currency: 'usd', prorationAmount: 0, trialEnds: false, amountDueNow: 0 };

describe('the confirm dialog words', () => {
  it('says the trial ends and what is charged now', () => {
    expect(dueNowText({ ...base, trialEnds: true, amountDueNow: 43400 })).toBe(
      MSG.trialEndsCharged('$434.00'),
    );
    expect(confirmLabel({ ...base, amountDueNow: 43400 })).toBe('Confirm and pay $434.00');
  });

  it('says what a prorated upgrade charges now', () => {
    expect(dueNowText({ ...base, amountDueNow: 918, prorationAmount: 918 })).toBe(
      MSG.chargedNowAmount('$9.18'),
    );
  });

  it('calls a downgrade credit a credit, not a charge', () => {
    expect(dueNowText({ ...base, prorationAmount: -500 })).toBe(MSG.creditedNow('$5.00'));
    expect(confirmLabel(base)).toBe('Confirm');
  });

  it('names the next charge, or nothing when none comes', () => {
    expect(nextChargeText({ nextCharge: null })).toBeNull();
    expect(
      nextChargeText({ nextCharge: { date: 1_775_000_000, amount: 10800, credit: 0, currency: 'usd' } }),
    ).toMatch(/^Then \$108\.00 on [A-Z][a-z]+, \d{1,2}(st|nd|rd|th) \d{4}\.$/);
  });
});
