import { describe, expect, it } from 'vitest';
import { formatCount } from './count-format';

describe('formatCount', () => {
  it('groups thousands as en-US does', () => {
    for (const n of [0, 7, 999, 1_000, 10_000, 123_456, 1_234_567, 9_007_199_254_740_991]) {
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    }
  });

  it('shows a missing, negative or fractional count as a whole non-negative number', () => {
    expect(formatCount(null)).toBe('0');
    expect(formatCount(undefined)).toBe('0');
    expect(formatCount(-5)).toBe('0');
    expect(formatCount(Number.NaN)).toBe('0');
    expect(formatCount(1_500.9)).toBe('1,500');
  });
});
