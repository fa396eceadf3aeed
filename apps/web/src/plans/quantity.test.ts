import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { userCountError, validUserCount, viewBlocksError } from './quantity';

describe('user count on a dynamic-quantity plan', () => {
  it('accepts whole numbers from the plan userLimit up', () => {
    expect(userCountError(10, 10)).toBeNull();
    expect(userCountError('12', 10)).toBeNull();
    expect(validUserCount('12', 10)).toBe(12);
  });
  it.each([0, -3, 2.5, '1e3', 'abc', '', null, undefined, '12 users'])(
    "refuses %j with 'Only possitive integers are allowed'",
    (value) => {
      expect(userCountError(value, 10)).toBe(MSG.positiveIntegers);
      expect(validUserCount(value, 10)).toBeNull();
    },
  );
  it('refuses fewer users than the plan includes', () => {
    expect(userCountError(9, 10)).toBe(MSG.userCountMin(10));
  });
});

describe('blocks of views to buy', () => {
  it('accepts 1 and more', () => {
    expect(viewBlocksError(1)).toBeNull();
    expect(viewBlocksError('2')).toBeNull();
  });
  it("asks for a positive integer when nothing is typed ('Please add positive integer')", () => {
    expect(viewBlocksError('')).toBe(MSG.addPositiveInteger);
    expect(viewBlocksError(null)).toBe(MSG.addPositiveInteger);
  });
  it.each([0, -1, 1.5, 'x', '3.0'])("refuses %j with 'Only possitive integers are allowed'", (value) => {
    expect(viewBlocksError(value)).toBe(MSG.positiveIntegers);
  });
});
