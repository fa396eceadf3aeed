import { describe, expect, it } from 'vitest';
import { supportAge } from './support-age';

describe('supportAge', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('says how long a request has waited', () => {
    expect(supportAge('2026-11-23T11:59:30Z', now)).toBe('just now');
    expect(supportAge('2026-11-23T11:55:00Z', now)).toBe('5 min');
    expect(supportAge('2026-11-23T09:00:00Z', now)).toBe('3 h');
    expect(supportAge('2026-11-21T11:00:00Z', now)).toBe('2 d');
    expect(supportAge('2026-11-23T12:00:05Z', now)).toBe('just now');
  });
});
