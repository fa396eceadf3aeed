import { describe, expect, it } from 'vitest';
import type { CouponRecord, PriceRecord } from '../core/records.ts';
import { couponDiscount, priceAmount } from './amounts.ts';
import { addInterval, nextPeriodEnd } from './time.ts';

const price = (p: Partial<PriceRecord>): PriceRecord => ({
  id: 'price_1',
  created: 0,
  product: 'prod_1',
  active: true,
  currency: 'usd',
  unitAmount: null,
  recurring: { interval: 'month', intervalCount: 1 },
  lookupKey: null,
  nickname: null,
  metadata: {},
  billingScheme: 'per_unit',
  tiersMode: null,
  tiers: null,
  ...p,
});

describe('amounts', () => {
  it('prices per unit and graduated tiers (Educator: $99 for the first 10 seats, $9 each after)', () => {
    expect(priceAmount(price({ unitAmount: 1200 }), 3)).toBe(3600);
    const educator = price({
      billingScheme: 'tiered',
      tiersMode: 'graduated',
      tiers: [
        { upTo: 10, flatAmount: 9900, unitAmount: null },
        { upTo: null, flatAmount: null, unitAmount: 900 },
      ],
    });
    expect(priceAmount(educator, 1)).toBe(9900);
    expect(priceAmount(educator, 10)).toBe(9900);
    expect(priceAmount(educator, 12)).toBe(9900 + 2 * 900);
    const volume = price({
      billingScheme: 'tiered',
      tiersMode: 'volume',
      tiers: [
        { upTo: 5, flatAmount: null, unitAmount: 1000 },
        { upTo: null, flatAmount: null, unitAmount: 800 },
      ],
    });
    expect(priceAmount(volume, 6)).toBe(4800);
  });

  it('discounts by percentage (rounded to the cent) or amount, never below zero', () => {
    const coupon = (c: Partial<CouponRecord>): CouponRecord => ({
      id: 'c',
      created: 0,
      name: null,
      percentOff: null,
      amountOff: null,
      currency: null,
      duration: 'forever',
      durationInMonths: null,
      metadata: {},
      timesRedeemed: 0,
      ...c,
    });
    expect(couponDiscount(coupon({ percentOff: 100 }), 9900)).toBe(9900);
    expect(couponDiscount(coupon({ percentOff: 15 }), 999)).toBe(150);
    expect(couponDiscount(coupon({ amountOff: 5000 }), 1200)).toBe(1200);
  });
});

describe('billing periods', () => {
  const at = (iso: string) => Date.parse(iso) / 1000;
  it('adds months in UTC, clamping to the month end like Stripe', () => {
    expect(addInterval(at('2027-01-31T10:00:00Z'), 'month', 1)).toBe(at('2027-02-28T10:00:00Z'));
    expect(addInterval(at('2028-01-31T10:00:00Z'), 'month', 1)).toBe(at('2028-02-29T10:00:00Z'));
    expect(addInterval(at('2027-01-10T00:00:00Z'), 'year', 1)).toBe(at('2028-01-10T00:00:00Z'));
    expect(addInterval(at('2027-01-10T00:00:00Z'), 'week', 2)).toBe(at('2027-01-24T00:00:00Z'));
  });

  it('counts periods from the anchor, so a 31st keeps coming back', () => {
    const anchor = at('2027-01-31T00:00:00Z');
    expect(nextPeriodEnd(anchor, 'month', 1, at('2027-02-28T00:00:00Z'))).toBe(at('2027-03-31T00:00:00Z'));
  });
});
