import { describe, expect, it } from 'vitest';
import {
  basePrice,
  formatUsd,
  perUserCost,
  planPeriod,
  plansFor,
  toPlanList,
  type Plan,
} from './plan-display';

const plan = (over: Partial<Plan>): Plan => ({ id: 1, name: 'Starter', price: '10.00', ...over });

describe('toPlanList', () => {
  it('accepts a bare array or a wrapped list, and drops junk', () => {
    expect(toPlanList([plan({}), { nope: 1 }])).toHaveLength(1);
    expect(toPlanList({ plans: [plan({})] })).toHaveLength(1);
    expect(toPlanList({ data: [plan({})] })).toHaveLength(1);
    expect(toPlanList(null)).toEqual([]);
  });
});

describe('prices', () => {
  it('uses the first tier when there is one', () => {
    expect(basePrice(plan({ price: '2.50', firstTierPrice: '49.00' }))).toBe(49);
    expect(basePrice(plan({ price: 19, firstTierPrice: null }))).toBe(19);
    expect(basePrice(plan({ price: 'n/a' }))).toBe(0);
  });
  it('formats dollars without needless cents', () => {
    expect(formatUsd(49)).toBe('$49');
    expect(formatUsd(9.5)).toBe('$9.50');
  });
  it('gives the per-user cost to 3 decimals', () => {
    expect(perUserCost(plan({ firstTierPrice: '100', userLimit: 3 }))).toBe('33.333');
    expect(perUserCost(plan({ userLimit: 0 }))).toBeNull();
  });
});

describe('periods', () => {
  it('reads displayPlantype, then planType, defaulting to monthly', () => {
    expect(planPeriod(plan({ displayPlantype: 'YEARLY', planType: 'MONTHLY' }))).toBe('YEARLY');
    expect(planPeriod(plan({ planType: 'yearly' }))).toBe('YEARLY');
    expect(planPeriod(plan({}))).toBe('MONTHLY');
  });
  it('filters and orders the plans of one period', () => {
    const plans = [
      plan({ id: 1, planType: 'MONTHLY', price: 30 }),
      plan({ id: 2, planType: 'YEARLY', price: 300 }),
      plan({ id: 3, planType: 'MONTHLY', price: 10 }),
    ];
    expect(plansFor(plans, 'MONTHLY').map((p) => p.id)).toEqual([3, 1]);
    expect(plansFor(plans, 'YEARLY').map((p) => p.id)).toEqual([2]);
  });
});
