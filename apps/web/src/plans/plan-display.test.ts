import { describe, expect, it } from 'vitest';
import {
  chargeText,
  counterpart,
  formatUsd,
  perUserCost,
  planPeriod,
  planPrice,
  plansFor,
  toCents,
  toPlanList,
} from './plan-display';
import { aPlan, ENTERPRISE_YEARLY, INDIVIDUAL_MONTHLY } from './plan-fixtures';

const EDUCATOR = aPlan();

describe('toPlanList', () => {
  it('parses the answer with the shared schema', () => {
    expect(toPlanList([EDUCATOR, INDIVIDUAL_MONTHLY])).toHaveLength(2);
  });
  it('refuses a malformed answer instead of showing an empty catalogue', () => {
    expect(() => toPlanList([{ id: 1, name: 'x' }])).toThrow();
    expect(() => toPlanList({ plans: [] })).toThrow();
  });
});

describe('price display', () => {
  it('is the first tier for the included users', () => {
    expect(planPrice(EDUCATOR, 10)).toBe(99);
    expect(formatUsd(planPrice(EDUCATOR, 10))).toBe('$99');
  });
  it('adds the per-user price for each extra user (Educator with 12 users)', () => {
    expect(planPrice(EDUCATOR, 12)).toBe(117);
    expect(planPrice(ENTERPRISE_YEARLY, 53)).toBe(4284);
  });
  it('never bills fewer users than the plan includes, nor extra users on a fixed plan', () => {
    expect(planPrice(EDUCATOR, 3)).toBe(99);
    expect(planPrice(INDIVIDUAL_MONTHLY, 4)).toBe(12);
  });
  it('formats dollars with grouping and cents only when there are some', () => {
    expect(formatUsd(4069.8)).toBe('$4,069.80');
    expect(formatUsd(9.5)).toBe('$9.50');
    expect(formatUsd(0.1 + 0.2)).toBe('$0.30');
  });
  it('shows the first-tier per-user cost to 3 decimals in the tooltip', () => {
    expect(perUserCost(EDUCATOR)).toBe('9.900');
    expect(perUserCost(INDIVIDUAL_MONTHLY)).toBe('12.000');
    expect(perUserCost(ENTERPRISE_YEARLY)).toBe('81.396');
    expect(perUserCost(aPlan({ firstTierPrice: 100, userLimit: 3 }))).toBe('33.333');
  });
  it("says 'charged $ {amount} per year or month' by displayType", () => {
    expect(chargeText(EDUCATOR, 12)).toBe('charged $ 117.00 per month');
    expect(chargeText(ENTERPRISE_YEARLY, 50)).toBe('charged $ 4,069.80 per year');
  });
  it('gives the wallet sheet whole cents', () => {
    expect(toCents(planPrice(EDUCATOR, 12))).toBe(11700);
    expect(toCents(4069.8)).toBe(406980);
  });
});

describe('periods', () => {
  it('reads displayPlantype', () => {
    expect(planPeriod(ENTERPRISE_YEARLY)).toBe('YEARLY');
    expect(planPeriod(EDUCATOR)).toBe('MONTHLY');
  });
  it('lists one period, cheapest first, and finds the same family in the other period', () => {
    const plans = [EDUCATOR, ENTERPRISE_YEARLY, INDIVIDUAL_MONTHLY];
    expect(plansFor(plans, 'MONTHLY').map((p) => p.id)).toEqual([7, 8]);
    expect(plansFor(plans, 'YEARLY').map((p) => p.id)).toEqual([14]);
    expect(counterpart(plans, aPlan({ id: 13, family: 'enterprise' }), 'YEARLY')?.id).toBe(14);
  });
});
