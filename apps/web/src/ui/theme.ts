import type { ThemeConfig } from 'antd';

export const PRIMARY_COLOR = '#5f51fb';

/** antd palette tokens for tags' text: the shade of each colour whose text reaches 4.5:1 on its tint. */
const TAG_TEXT_SHADES = {
  green7: '#237804', // green-8
  orange7: '#ad4e00', // orange-8
  volcano7: '#ad2102', // volcano-8
  cyan7: '#006d75', // cyan-8
  gold7: '#874d00', // gold-9
  yellow7: '#876800', // yellow-9
  lime7: '#3f6600', // lime-9
  colorSuccess: '#237804', // green-8
  colorInfo: '#0958d9', // blue-7
  colorError: '#cf1322', // red-7
  colorWarning: '#874d00', // gold-9
} as const;

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
    // Danger buttons' text (Revoke, Delete) and error messages at 5.6:1 (red-7) instead of antd's
    // 3.3:1 (#ff4d4f): axe's colour-contrast rule.
    colorError: '#cf1322',
    borderRadius: 8,
  },
  components: {
    // A coloured tag's text is its colour's shade 7 on shade 1, which is under WCAG AA's 4.5:1 for
    // green (the plans' "Current plan", 3.4:1), orange, gold, volcano, cyan, yellow and lime, and
    // antd's status colours (success, processing, error, warning). Each takes the first darker shade
    // of its own palette that reaches 4.5:1 (theme.test.ts checks every preset and status colour).
    Tag: TAG_TEXT_SHADES,
    // An empty table's message ("No data", "No rows yet") is text to read, not a disabled control.
    Table: { colorTextDisabled: 'rgba(0, 0, 0, 0.6)' },
  },
};
