import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';

describe('formatMoney', () => {
  it('shows cents as dollars with two decimals, credits with a minus', () => {
    expect(formatMoney(43400)).toBe('$434.00');
    expect(formatMoney(-525, 'usd')).toBe('-$5.25');
    expect(formatMoney(123456789)).toBe('$1,234,567.89');
  });
});
