import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { routes } from '../routing/routes';
import { sessionReadyAtom } from '../session/session.atoms';

export interface PrerenderedPage {
  /** The markup inside #root, as the app renders it for a signed-out visitor. */
  html: string;
  /** antd's styles for that markup, as CSS. */
  css: string;
}

/**
 * The login page as the browser app renders it for a signed-out visitor on the portal's own host,
 * rendered at build time (build/prerender-login.ts) with the app's own routes, guard, layout and form,
 * so the HTML paints the real form before any script runs. Runs in Node only.
 */
export async function renderLoginPage(): Promise<PrerenderedPage> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/login'));
  if (context instanceof Response) throw new Error(`/login answered ${context.status} at build time`);
  // A route that failed to load would be drawn as the error page: fail the build instead.
  const failure = Object.values(context.errors ?? {})[0];
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  const router = createStaticRouter(handler.dataRoutes, context);
  // Signed out, with the session read: what the guard sees when no session cookie is set.
  const store = createStore();
  store.set(sessionReadyAtom, true);
  const cache = createCache();
  const html = renderToString(
    <JotaiProvider store={store}>
      <StyleProvider cache={cache}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </StyleProvider>
    </JotaiProvider>,
  );
  // Plain CSS, without the map antd's runtime reads to skip styles a server already sent: the browser
  // app injects its own full styles when it starts, as on every other page.
  const css = extractStyle(cache, { plain: true }).replace(/\.data-ant-cssinjs-cache-path\{[^}]*\}/g, '');
  return { html, css };
}
