import { theme as antdTheme } from 'antd';
import { describe, expect, it } from 'vitest';
import { theme } from './theme';

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const v = parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const PRESETS = ['blue', 'purple', 'cyan', 'green', 'magenta', 'pink', 'red', 'orange', 'yellow'].concat([
  'volcano',
  'geekblue',
  'gold',
  'lime',
]);

describe("the app theme's tags", () => {
  // What antd's Tag draws with (tag/style presetCmp and statusCmp): the global tokens, then the Tag's own.
  const token = {
    ...antdTheme.getDesignToken({ token: theme.token }),
    ...theme.components?.Tag,
  } as unknown as Record<string, string>;

  it('reach WCAG AA (4.5:1) for text in every preset colour', () => {
    for (const colour of PRESETS) {
      expect({ colour, ratio: contrast(token[`${colour}7`]!, token[`${colour}1`]!) >= 4.5 }).toEqual({
        colour,
        ratio: true,
      });
    }
  });

  it('reach WCAG AA (4.5:1) for text in every status colour', () => {
    for (const status of ['Success', 'Info', 'Error', 'Warning']) {
      const ratio = contrast(token[`color${status}`]!, token[`color${status}Bg`]!);
      expect({ status, aa: ratio >= 4.5 }).toEqual({ status, aa: true });
    }
  });
});
