import { describe, expect, it } from 'vitest';
import { highlightParts } from './highlight-text';
import { includesText } from './column-search';

describe('highlightParts', () => {
  it('marks every case-insensitive match', () => {
    expect(highlightParts('Anna Banana', 'an')).toEqual([
      { text: 'An', match: true },
      { text: 'na B', match: false },
      { text: 'an', match: true },
      { text: 'an', match: true },
      { text: 'a', match: false },
    ]);
  });
  it('treats the search as text, not a pattern', () => {
    expect(highlightParts('a.b (c)', '(c)')).toEqual([
      { text: 'a.b ', match: false },
      { text: '(c)', match: true },
    ]);
    expect(highlightParts('abc', '')).toEqual([{ text: 'abc', match: false }]);
  });
  it('filters by substring', () => {
    expect(includesText('Educator Monthly', 'monTH')).toBe(true);
    expect(includesText(null, 'x')).toBe(false);
  });
});
