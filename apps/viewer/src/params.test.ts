import { EMBED_FLAGS } from '@helix/shared/embed';
import { describe, expect, it } from 'vitest';
import {
  DEV_ONLY_PARAMS,
  parseColour,
  parseSettings,
  parseUrl,
  parseViewerParams,
  STANDARD_MODE_FLAGS,
  withoutDevParams,
} from './params.ts';

describe('parseViewerParams', () => {
  it('reads the frame parameters', () => {
    const p = parseViewerParams(
      '?model=animal-cell&subscription=sub_1&currentmode=standard&version=3&src=/m/a.glb&settings=info,play',
    );
    expect(p).toMatchObject({
      model: 'animal-cell',
      subscription: 'sub_1',
      currentmode: 'standard',
      version: '3',
      src: '/m/a.glb',
      settings: 'info,play',
    });
  });

  it('defaults to embedding mode and keeps an empty settings value distinct from an absent one', () => {
    expect(parseViewerParams('').currentmode).toBe('embedding');
    expect(parseViewerParams('?currentmode=bogus').currentmode).toBe('embedding');
    expect(parseViewerParams('').settings).toBeNull();
    expect(parseViewerParams('?settings=').settings).toBe('');
  });
});

describe('parseSettings', () => {
  it('enables all 16 flags (the 15 and ar) when absent (embedding)', () => {
    expect(parseSettings(null)).toEqual([...EMBED_FLAGS]);
    expect(parseSettings(null)).toHaveLength(16);
  });

  it('uses the fixed modal set in standard mode: everything but center_model', () => {
    expect(parseSettings(null, 'standard')).toEqual([...STANDARD_MODE_FLAGS]);
    expect(parseSettings(null, 'standard')).not.toContain('center_model');
    expect(parseSettings(null, 'standard')).toHaveLength(15);
    // A live lesson's frame is the portal's viewer too.
    expect(parseSettings(null, 'lesson')).toEqual([...STANDARD_MODE_FLAGS]);
  });

  it('parses comma lists, camelCase and JSON arrays; ignores unknown names; keeps canonical order', () => {
    expect(parseSettings('play, info ,nonsense')).toEqual(['info', 'play']);
    expect(parseSettings('centerModel,labelsUi,tableOfContent')).toEqual([
      'labels_ui',
      'table_of_content',
      'center_model',
    ]);
    expect(parseSettings('["zoom_controls","layers"]')).toEqual(['layers', 'zoom_controls']);
    expect(parseSettings('')).toEqual([]);
    expect(parseSettings('', 'standard')).toEqual([]);
  });
});

describe('parseColour / parseUrl', () => {
  it('accepts hex (with or without #), functional and named colours', () => {
    expect(parseColour('#FFF')).toBe('#fff');
    expect(parseColour('5f51fb')).toBe('#5f51fb');
    expect(parseColour('rgb(1, 2, 3)')).toBe('rgb(1, 2, 3)');
    expect(parseColour('transparent')).toBe('transparent');
    expect(parseColour('https://x.test/a.png')).toBeNull();
    expect(parseColour('red;background:url(x)')).toBeNull();
  });

  it('accepts http(s), relative and data:image URLs only', () => {
    const base = 'https://viewer.test/index.html';
    expect(parseUrl('/models/a.glb', base)).toBe('https://viewer.test/models/a.glb');
    expect(parseUrl('https://cdn.test/a.glb', base)).toBe('https://cdn.test/a.glb');
    expect(parseUrl('javascript:alert(1)', base)).toBeNull();
    expect(parseUrl('data:text/html,<b>x</b>', base)).toBeNull();
    expect(parseUrl('data:image/png;base64,AAAA', base)).toBe('data:image/png;base64,AAAA');
  });
});

describe('withoutDevParams', () => {
  it('drops src and every free-form settings/branding/title parameter, keeping the catalogue ones', () => {
    const p = parseViewerParams(
      '?model=m&subscription=s&currentmode=standard&version=3&viewer=AbCdEfGhIjKlMnOp&glb=https://a.test/f&src=/x.glb&settings=info&bg=red' +
        '&bgcolor=blue&bgimage=/b.png&loading=/l.png&primary=%23fff&name=N&description=D',
    );
    const gated = withoutDevParams(p);
    expect(gated).toEqual({
      model: 'm',
      subscription: 's',
      currentmode: 'standard',
      version: '3',
      viewer: 'AbCdEfGhIjKlMnOp',
      glb: 'https://a.test/f',
      src: null,
      settings: null,
      bg: null,
      bgcolor: null,
      bgimage: null,
      loading: null,
      primary: null,
      name: null,
      description: null,
    });
    expect([...DEV_ONLY_PARAMS].sort()).toEqual([
      'bg',
      'bgcolor',
      'bgimage',
      'description',
      'loading',
      'name',
      'primary',
      'settings',
      'src',
    ]);
    expect(p.src).toBe('/x.glb'); // the input is not modified
  });
});
