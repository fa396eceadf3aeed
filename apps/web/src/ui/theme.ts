import type { ThemeConfig } from 'antd';

export const PRIMARY_COLOR = '#5f51fb';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: PRIMARY_COLOR,
    colorLink: PRIMARY_COLOR,
    colorTextLightSolid: '#ffffff',
    colorBgLayout: '#ffffff',
    borderRadius: 8,
  },
};

/** Mobile breakpoints of the specification: settings screens and everything else. */
export const BREAKPOINT = { settings: 767, other: 450 } as const;
