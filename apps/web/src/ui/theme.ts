import type { ThemeConfig } from 'antd';

export const PRIMARY_COLOR = '#5f51fb';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: PRIMARY_COLOR,
    colorLink: PRIMARY_COLOR,
    colorTextLightSolid: '#ffffff',
    colorBgLayout: '#ffffff',
    // Secondary text (form hints, step titles, description labels) at 5.7:1 on white instead of
    // antd's 3.4:1 (#8c8c8c), which fails WCAG AA for 14 px text.
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    // Placeholders at 4.9:1 instead of 1.8:1 (#bfbfbf): axe's colour-contrast rule (docs/accessibility.md).
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)',
    borderRadius: 8,
  },
  components: {
    // An empty table's message ("No data", "No rows yet") is text to read, not a disabled control.
    Table: { colorTextDisabled: 'rgba(0, 0, 0, 0.6)' },
  },
};

/** Mobile breakpoints of the specification: settings screens and everything else. */
export const BREAKPOINT = { settings: 767, other: 450 } as const;
