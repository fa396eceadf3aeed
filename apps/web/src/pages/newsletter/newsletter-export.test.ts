import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { subscriberRows } from './newsletter-export';

describe('subscriberRows', () => {
  it('has the header and one row per subscriber, dates as YYYY-MM-DD h:mm:ss', () => {
    const rows = subscriberRows([{ id: 1, email: 'a@example.test', created_at: '2026-03-04T15:06:07' }]);
    expect(rows).toEqual([
      ['Email', 'Created At'],
      ['a@example.test', '2026-03-04 3:06:07'],
    ]);
  });
  it('never lets a cell start a formula', () => {
    const rows = subscriberRows([
      { id: 1, email: '=HYPERLINK("x")@e.test', created_at: '2026-03-04T15:06:07' },
    ]);
    expect(rows[1]![0]).toBe('\'=HYPERLINK("x")@e.test');
    expect(Papa.unparse(rows)).toContain("'=HYPERLINK");
  });
});
