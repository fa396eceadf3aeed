import { describe, expect, it } from 'vitest';
import { EMBED_FLAG_LABELS, EMBED_FLAGS, embedFlagLabel, TRANSPARENT_BACKGROUND } from './embed.ts';

describe('the words for link features', () => {
  it('names every flag and the transparent background, each with its own words', () => {
    const names = [...EMBED_FLAGS, TRANSPARENT_BACKGROUND];
    expect(Object.keys(EMBED_FLAG_LABELS).sort()).toEqual([...names].sort());
    const words = names.map((flag) => embedFlagLabel(flag));
    expect(new Set(words).size).toBe(names.length);
    for (const word of words) expect(word).toMatch(/^[A-Z][a-z]+( [a-z-]+)*$/);
    expect(embedFlagLabel('labels_ui')).toBe('Labels button');
  });

  it('shows a name it does not know as stored', () => {
    expect(embedFlagLabel('retired_flag')).toBe('retired_flag');
  });
});
