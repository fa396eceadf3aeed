import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { csvText, xlsxCells, type ExportTable } from './export-table';

const table: ExportTable = {
  header: ['Name', 'Email', 'Logins'],
  rows: [
    ['José García', 'jose@example.com', 3],
    ['=1+2', '@sum', null],
    ['-x', '+44 7700 900123', 0.5],
  ],
};

describe('exported cells', () => {
  it('CSV starts with a UTF-8 byte-order mark so Excel shows José, not JosÃ©', () => {
    const bytes = new TextEncoder().encode(csvText(table));
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csvText(table)).toContain('José García');
    expect(csvText(table)).toContain('\r\n');
  });

  it('CSV guards formula-looking cells with an apostrophe', () => {
    expect(Papa.parse<string[]>(csvText(table)).data).toEqual([
      ['Name', 'Email', 'Logins'],
      ['José García', 'jose@example.com', '3'],
      ["'=1+2", "'@sum", ''],
      ["'-x", "'+44 7700 900123", '0.5'],
    ]);
  });

  it('XLSX keeps text as it is (a string cell is never a formula) and numbers as numbers', () => {
    expect(xlsxCells(table)).toEqual([
      [
        { type: String, value: 'Name', fontWeight: 'bold' },
        { type: String, value: 'Email', fontWeight: 'bold' },
        { type: String, value: 'Logins', fontWeight: 'bold' },
      ],
      [
        { type: String, value: 'José García' },
        { type: String, value: 'jose@example.com' },
        { type: Number, value: 3 },
      ],
      [
        { type: String, value: '=1+2' },
        { type: String, value: '@sum' },
        { type: String, value: '' },
      ],
      [
        { type: String, value: '-x' },
        { type: String, value: '+44 7700 900123' },
        { type: Number, value: 0.5 },
      ],
    ]);
  });
});
