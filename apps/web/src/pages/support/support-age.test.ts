import { describe, expect, it } from 'vitest';
import { priorityFirst, supportAge } from './support-age';

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

describe('priorityFirst', () => {
  const rows = [
    { id: 1, priority: false },
    { id: 2, priority: true },
    { id: 3, priority: false },
    { id: 4, priority: true },
  ];
  const byId = priorityFirst<(typeof rows)[number]>((a, b) => a.id - b.id);
  it('keeps priority requests first in both directions', () => {
    expect([...rows].sort((a, b) => byId(a, b, 'ascend')).map((r) => r.id)).toEqual([2, 4, 1, 3]);
    // antd reverses the comparator for a descending sort.
    expect([...rows].sort((a, b) => -byId(a, b, 'descend')).map((r) => r.id)).toEqual([4, 2, 3, 1]);
  });
});
