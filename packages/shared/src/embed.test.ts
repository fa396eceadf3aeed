import { describe, expect, it } from 'vitest';
import {
  describeLinkFeatures,
  EMBED_FLAG_LABELS,
  EMBED_FLAGS,
  embedFlagLabel,
  TRANSPARENT_BACKGROUND,
} from './embed.ts';
import { MSG } from './messages.ts';

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

describe("a link's features in words", () => {
  const allBut = (...off: string[]) => EMBED_FLAGS.filter((flag) => !off.includes(flag));

  it('says all, all except a few, or names each', () => {
    expect(describeLinkFeatures(EMBED_FLAGS)).toBe(MSG.linkFeaturesAll);
    expect(describeLinkFeatures(allBut('layers', 'zoom_controls'))).toBe('All except Layers, Zoom controls');
    expect(describeLinkFeatures(['info', 'labels_ui'])).toBe('Model information, Labels button');
    expect(describeLinkFeatures([])).toBe(MSG.linkFeaturesNone);
  });

  it('always names a transparent background', () => {
    expect(describeLinkFeatures(allBut('background', 'background_color'), true)).toBe(
      'All except Background image, Background colour, Transparent background',
    );
    expect(describeLinkFeatures([], true)).toBe('Transparent background');
  });
});
