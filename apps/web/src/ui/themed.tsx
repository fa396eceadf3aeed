import { ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { theme } from './theme';
import { ToastBridge } from './toast-bridge';

/**
 * antd's theme (and the toasts bound to it) for what is inside. Not in the entry chunk: the embed and
 * share pages, shown inside other people's sites, use no antd on their way to the viewer frame, so
 * antd's foundation (CSS-in-JS, theme, config: about 75 kB compressed) loads only with the pages that
 * need it, as a lazy layout route (src/routing/routes.tsx) or inside a lazy dialog.
 */
export function Themed({ children, toasts = false }: { children: ReactNode; toasts?: boolean }) {
  return (
    <ConfigProvider theme={theme}>
      {toasts && <ToastBridge />}
      {children}
    </ConfigProvider>
  );
}

/** The layout route around every screen built with antd (all but embed and share). */
export function ThemedOutlet() {
  return (
    <Themed toasts>
      <Outlet />
    </Themed>
  );
}
