import { describe, expect, it } from 'vitest';
import {
  billedSeats,
  firstTierPerSeat,
  planAmountCents,
  planTiers,
  seatQuantityIsValid,
  toCents,
} from './plan-price.ts';

const individual = { firstTierPrice: '12.00', price: '12.00', userLimit: 1, dynamicQuantity: false };
const educator = { firstTierPrice: '99.00', price: '9.00', userLimit: 10, dynamicQuantity: 'true' as const };
const educatorYearly = { firstTierPrice: '1009.80', price: '91.80', userLimit: 10, dynamicQuantity: true };
const enterprise = { firstTierPrice: 399, price: 7, userLimit: 50, dynamicQuantity: true };

describe('plan prices in cents', () => {
  it('converts dollars exactly (no floating point drift)', () => {
    expect(toCents('1009.80')).toBe(100_980);
    expect(toCents(4069.8)).toBe(406_980);
    expect(toCents('0.1')).toBe(10);
    expect(toCents({ toString: () => '122.4' })).toBe(12_240);
    expect(() => toCents('-1')).toThrow();
  });

  it('prices the first tier flat and every extra seat at the per-user price', () => {
    expect(planAmountCents(individual)).toBe(1200);
    expect(planAmountCents(individual, 5)).toBe(1200); // a fixed plan bills its userLimit
    expect(planAmountCents(educator)).toBe(9900);
    expect(planAmountCents(educator, 12)).toBe(9900 + 2 * 900);
    expect(planAmountCents(educator, 3)).toBe(9900); // never fewer than userLimit seats
    expect(planAmountCents(educatorYearly, 11)).toBe(100_980 + 9180);
    expect(planAmountCents(enterprise, 60)).toBe(39_900 + 10 * 700);
  });

  it('yearly is 12 x monthly less 15% (the seeded yearly figures)', () => {
    expect(toCents('1009.80')).toBe(Math.round(9900 * 12 * 0.85));
    expect(toCents('122.40')).toBe(Math.round(1200 * 12 * 0.85));
    expect(toCents('4069.80')).toBe(Math.round(39_900 * 12 * 0.85));
  });

  it('builds graduated tiers that give the same amounts', () => {
    expect(planTiers(educator)).toEqual([
      { up_to: 10, flat_amount: 9900, unit_amount: 0 },
      { up_to: 'inf', unit_amount: 900 },
    ]);
    const tiered = (seats: number) => {
      const [first, rest] = planTiers(educator);
      return first!.flat_amount! + Math.max(0, seats - 10) * rest!.unit_amount!;
    };
    for (const seats of [10, 11, 12, 40]) expect(tiered(seats)).toBe(planAmountCents(educator, seats));
  });

  it('checks seat counts and shows the first-tier cost per seat to 3 decimals', () => {
    expect(seatQuantityIsValid(educator, 10)).toBe(true);
    expect(seatQuantityIsValid(educator, 9)).toBe(false);
    expect(seatQuantityIsValid(educator, 10.5)).toBe(false);
    expect(seatQuantityIsValid(individual, 1)).toBe(true);
    expect(billedSeats(educator, 12)).toBe(12);
    expect(firstTierPerSeat(educator)).toBe('9.900');
    expect(firstTierPerSeat({ ...educator, firstTierPrice: '100.00', userLimit: 3 })).toBe('33.333');
  });
});
