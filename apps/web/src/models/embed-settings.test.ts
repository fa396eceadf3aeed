import { describe, expect, it } from 'vitest';
import { EMBED_FLAGS, TRANSPARENT_BACKGROUND, type EmbedFlag } from '@helix/shared';
import {
  applyChecklistChange,
  applyLinkOptionsChange,
  DEFAULT_EMBED_SETTINGS,
  MODAL_VIEWER_FLAGS,
  toggleFlag,
  withModalSettings,
} from './embed-settings';

const without = (...flags: EmbedFlag[]) => EMBED_FLAGS.filter((f) => !flags.includes(f));

describe('the default checklist', () => {
  it('has all 16 features on (the 15 and ar)', () => {
    expect(DEFAULT_EMBED_SETTINGS).toHaveLength(16);
    expect([...DEFAULT_EMBED_SETTINGS]).toEqual([...EMBED_FLAGS]);
  });
});

describe('toggleFlag: background and background_color are exclusive', () => {
  it('ticking background unticks background_color', () => {
    const start = without('background');
    expect(toggleFlag(start, 'background', true)).toEqual(without('background_color'));
  });

  it('ticking background_color unticks background', () => {
    const start = without('background_color');
    expect(toggleFlag(start, 'background_color', true)).toEqual(without('background'));
  });

  it('the most recently picked wins, back and forth', () => {
    let flags = toggleFlag([], 'background', true);
    expect(flags).toEqual(['background']);
    flags = toggleFlag(flags, 'background_color', true);
    expect(flags).toEqual(['background_color']);
    flags = toggleFlag(flags, 'background', true);
    expect(flags).toEqual(['background']);
  });

  it('unticking one never ticks the other', () => {
    expect(toggleFlag(['info', 'background'], 'background', false)).toEqual(['info']);
    expect(toggleFlag(EMBED_FLAGS, 'background_color', false)).toEqual(without('background_color'));
  });

  it('other flags are independent and keep the canonical order', () => {
    expect(toggleFlag(['zoom_controls', 'info'], 'draw', true)).toEqual(['info', 'draw', 'zoom_controls']);
    expect(toggleFlag(['info', 'draw'], 'info', false)).toEqual(['draw']);
    expect(toggleFlag(['info'], 'info', true)).toEqual(['info']);
  });
});

describe('applyChecklistChange (the checkbox group reports the whole list)', () => {
  it('applies a newly ticked background over background_color', () => {
    const previous = without('background');
    expect(applyChecklistChange(previous, [...previous, 'background'])).toEqual(without('background_color'));
  });

  it('applies a newly ticked background_color over background', () => {
    const previous = without('background_color');
    expect(applyChecklistChange(previous, ['background_color', ...previous])).toEqual(without('background'));
  });

  it('passes plain unticks through, including the default state with both on', () => {
    expect(applyChecklistChange(EMBED_FLAGS, without('info'))).toEqual(without('info'));
    expect(applyChecklistChange(EMBED_FLAGS, [...EMBED_FLAGS])).toEqual([...EMBED_FLAGS]);
  });

  it('drops unknown names', () => {
    expect(applyChecklistChange(['info'], ['info', 'evil'])).toEqual(['info']);
  });
});

describe('withModalSettings', () => {
  const fixed = MODAL_VIEWER_FLAGS.join(',');

  it('is every flag but center_model', () => {
    expect(MODAL_VIEWER_FLAGS).toHaveLength(15);
    expect(MODAL_VIEWER_FLAGS).not.toContain('center_model');
  });

  it('appends the fixed set to a URL without settings', () => {
    expect(withModalSettings('https://viewer.test/?model=heart&currentmode=standard')).toBe(
      `https://viewer.test/?model=heart&currentmode=standard&settings=${fixed}`,
    );
    expect(withModalSettings('https://viewer.test/')).toBe(`https://viewer.test/?settings=${fixed}`);
    expect(withModalSettings('https://viewer.test/?a=1#x')).toBe(
      `https://viewer.test/?a=1&settings=${fixed}#x`,
    );
  });

  it('leaves a URL that already carries settings alone', () => {
    const url = 'https://viewer.test/?model=heart&settings=info,draw';
    expect(withModalSettings(url)).toBe(url);
  });
});

describe('applyLinkOptionsChange: background, background_color and transparent are exclusive', () => {
  const T = TRANSPARENT_BACKGROUND;
  it('ticking transparent unticks both backdrops', () => {
    const start = { settings: ['info', 'background_color'] as EmbedFlag[], transparentBackground: false };
    expect(applyLinkOptionsChange(start, ['info', 'background_color', T])).toEqual({
      settings: ['info'],
      transparentBackground: true,
    });
  });

  it('ticking a backdrop unticks transparent; the most recently picked of the three wins', () => {
    let options = { settings: ['info'] as EmbedFlag[], transparentBackground: true };
    options = applyLinkOptionsChange(options, ['info', T, 'background']);
    expect(options).toEqual({ settings: ['info', 'background'], transparentBackground: false });
    options = applyLinkOptionsChange(options, ['info', 'background', 'background_color']);
    expect(options).toEqual({ settings: ['info', 'background_color'], transparentBackground: false });
    options = applyLinkOptionsChange(options, ['info', 'background_color', T]);
    expect(options).toEqual({ settings: ['info'], transparentBackground: true });
  });

  it('unticking transparent leaves the others as they are; other boxes keep it', () => {
    const start = { settings: ['info'] as EmbedFlag[], transparentBackground: true };
    expect(applyLinkOptionsChange(start, ['info', 'layers', T])).toEqual({
      settings: ['info', 'layers'],
      transparentBackground: true,
    });
    expect(applyLinkOptionsChange(start, ['info'])).toEqual({
      settings: ['info'],
      transparentBackground: false,
    });
  });
});
