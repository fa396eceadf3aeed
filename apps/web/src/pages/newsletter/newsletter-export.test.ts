import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { csvText, xlsxCells } from '../../ui/export-table';
import { subscriberRows } from './newsletter-export';

describe('subscriberRows', () => {
  it('has the header and one row per subscriber, dates as YYYY-MM-DD h:mm:ss', () => {
    const table = subscriberRows([{ id: 1, email: 'a@example.test', created_at: '2026-03-04T15:06:07' }]);
    expect(table).toEqual({
      header: ['Email', 'Created At'],
      rows: [['a@example.test', '2026-03-04 3:06:07']],
    });
  });
  it('never lets a CSV cell start a formula; the XLSX keeps the text as it is', () => {
    const table = subscriberRows([
      { id: 1, email: '=HYPERLINK("x")@e.test', created_at: '2026-03-04T15:06:07' },
    ]);
    expect(Papa.parse<string[]>(csvText(table)).data[1]![0]).toBe('\'=HYPERLINK("x")@e.test');
    expect(xlsxCells(table)[1]![0]).toEqual({ type: String, value: '=HYPERLINK("x")@e.test' });
  });
});
