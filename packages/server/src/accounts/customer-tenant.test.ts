import { describe, expect, it } from 'vitest';
import { USERNAME_PATTERN } from '@helix/shared';
import { firstFree } from './customer-tenant.ts';

describe('firstFree', () => {
  it('keeps the name when free, else adds the first free number, skipping reserved names', () => {
    expect(firstFree('ada', new Set())).toBe('ada');
    expect(firstFree('ada', new Set(['ada', 'ada2']))).toBe('ada3');
    expect(firstFree('services', new Set(), new Set(['services']))).toBe('services2');
    expect(firstFree('ada', new Set(['ada']))).toMatch(USERNAME_PATTERN);
  });
});
