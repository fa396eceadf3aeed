import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { safeCell } from '../safe-cell.ts';
import { blockingRows, checkInviteRows, rowsToSend } from './invite.ts';

describe('checkInviteRows', () => {
  it('marks missing names, invalid e-mails, duplicates (first kept) and existing users', () => {
    const rows = checkInviteRows(
      [
        { name: 'Ann', email: 'Ann@Example.com' },
        { name: '', email: 'b@example.com' },
        { name: 'Cid', email: 'not-mail' },
        { name: 'Ann again', email: 'ann@example.com ' },
        { name: 'Known', email: 'known@example.com' },
        { name: '=1+2', email: 'formula@example.com', note: '@SUM(A1)' },
      ],
      new Set(['known@example.com']),
    );
    expect(rows.map((r) => r.problems)).toEqual([
      [],
      ['missingName'],
      ['invalidEmail'],
      ['duplicate'],
      ['existing'],
      [],
    ]);
    expect(rows[0]!.email).toBe('ann@example.com');
    expect(rows[1]!.problemText).toEqual([MSG.bulkRowMissingName]);
    expect(rowsToSend(rows).map((r) => r.email)).toEqual(['ann@example.com', 'formula@example.com']);
    expect(blockingRows(rows).map((r) => r.index)).toEqual([1, 2, 4]);
    // A formula is kept as text.
    expect(rows[5]!.name).toBe('=1+2');
  });

  it('caps cell lengths', () => {
    const [row] = checkInviteRows([{ name: 'n'.repeat(101), email: 'a@b.co', note: 'x'.repeat(501) }]);
    expect(row!.problemText).toEqual([MSG.bulkRowTooLong('Name', 100), MSG.bulkRowTooLong('Note', 500)]);
  });
});

describe('safeCell', () => {
  it('never lets an exported cell start a formula', () => {
    for (const value of ['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx', "'x"]) {
      expect(safeCell(value)).toBe(`'${value}`);
    }
    expect(safeCell('Ann')).toBe('Ann');
    expect(safeCell(null)).toBe('');
    expect(safeCell(3)).toBe('3');
  });
});
