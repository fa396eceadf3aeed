import { describe, expect, it } from 'vitest';
import { rowsFromTable } from './bulk-file';

describe('rowsFromTable', () => {
  it('reads columns by their header, in any order and case, skipping empty rows', () => {
    expect(
      rowsFromTable([
        ['Email', 'NAME', 'Note'],
        ['a@b.co', 'Ann', 'hi'],
        ['', '', ''],
        ['c@d.co', '=1+2', null],
      ]),
    ).toEqual([
      { name: 'Ann', email: 'a@b.co', note: 'hi' },
      { name: '=1+2', email: 'c@d.co', note: '' },
    ]);
  });

  it('takes name, email, note in that order without a header', () => {
    expect(rowsFromTable([['Ann', 'a@b.co', 7]])).toEqual([{ name: 'Ann', email: 'a@b.co', note: '7' }]);
  });
});
