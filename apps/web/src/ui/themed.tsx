import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { theme } from './theme';

/**
 * antd's theme for what is inside (toasts take it from ./toasts.tsx). Not in the entry chunk: the embed and
 * share pages, shown inside other people's sites, use no antd on their way to the viewer frame, so
 * antd's foundation (CSS-in-JS, theme, config: about 75 kB compressed) loads only with the pages that
 * need it, as a lazy layout route (src/routing/routes.tsx) or inside a lazy dialog.
 */
export function Themed({ children }: { children: ReactNode }) {
  return <ConfigProvider theme={theme}>{children}</ConfigProvider>;
}

/** The layout route around every screen built with antd (all but embed and share). */
export function ThemedOutlet() {
  return (
    <Themed>
      <Outlet />
    </Themed>
  );
}
