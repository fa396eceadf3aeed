import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import { iconStyles } from '@ant-design/icons/es/utils';
import hash from '@emotion/hash';
import { dehydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import type { createStore } from 'jotai';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { createQueryClient } from '../api/query-client';
import { AppTree } from '../app-tree';
import { routes } from '../routing/routes';

export interface RenderedPage {
  /** The markup inside #root, as the app renders it. */
  html: string;
  /** antd's full styles for that markup's components, as CSS, with antd's cache map. */
  css: string;
  /**
   * antd's CSS variables (the theme's and each component's), as the `<style>` elements the browser's
   * antd looks for by their hash before inserting its own (cssVarTags).
   */
  styleTags: string;
  /** The query client's answers the page was rendered with, for the browser's client. */
  queries: DehydratedState;
}

/**
 * One address of the app rendered in Node with the app's own routes, guard and components, over
 * `store` (the session the page is rendered for). `beforeRender` runs right before the synchronous render
 * and its answer right after (what a page needs set only for its own render). A route that failed to
 * load would be rendered as the error page: this throws instead. `queryClient`: the page's data layer,
 * seeded with the answers the page is rendered with. Runs in Node only.
 */
export async function renderRoute(
  path: string,
  store: ReturnType<typeof createStore>,
  beforeRender: () => () => void = () => () => undefined,
  queryClient: QueryClient = createQueryClient({ server: true }),
): Promise<RenderedPage> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error(`${path} answered ${context.status}`);
  const failure = Object.values(context.errors ?? {})[0];
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  const router = createStaticRouter(handler.dataRoutes, context);
  const cache = createCache();
  const after = beforeRender();
  try {
    const html = renderToString(
      <AppTree
        store={store}
        queryClient={queryClient}
        router={
          <StyleProvider cache={cache}>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </StyleProvider>
        }
      />,
    );
    // Plain CSS with antd's cache map (the `.data-ant-cssinjs-cache-path{content:…}` rule): as it
    // hydrates, the browser's antd reads the map from the page's styles and neither computes nor injects
    // again the component styles listed there (the largest part of hydrating an antd page). So these
    // are each component's full styles, every state included, never pruned to what the markup uses.
    const css = extractStyle(cache, { plain: true, types: ['style'] });
    return {
      html,
      css,
      styleTags: themeVarTags(cache) + ICON_STYLE_TAG + cssVarTags(cache),
      queries: dehydrate(queryClient),
    };
  } finally {
    after();
  }
}

/** antd's map rule, which extractStyle appends to any output; the page's CSS above carries the one that counts. */
const CACHE_MAP_TAG = /<style[^>]*data-ant-cssinjs-cache-path[^>]*>[\s\S]*?<\/style>/g;

/**
 * The theme's CSS variables (12 kB) as the `<style>` the browser's antd looks for before inserting its
 * own: antd extracts it under the theme token's key, but the browser's antd looks it up by a hash of
 * the variables' key (`hash('css-var-' + key)`, @ant-design/cssinjs useCacheToken), found nothing and
 * inserted it again while hydrating: a new stylesheet in a head of 250 kB of styles, so the whole page's
 * styles were computed again in the hydration's commit.
 */
function themeVarTags(cache: ReturnType<typeof createCache>): string {
  return extractStyle(cache, { types: ['token'] })
    .replace(CACHE_MAP_TAG, '')
    .replace(/<style [^>]*>/g, (tag) => {
      const key = /data-token-hash="([^"]+)"/.exec(tag)?.[1];
      return key ? tag.replace(/data-css-hash="[^"]*"/, `data-css-hash="${hash(`css-var-${key}`)}"`) : tag;
    });
}

/**
 * antd's icons' own styles, which the icons insert on their first render unless the page has them
 * under their key (`rc-util-key`): the same, found in the page and kept.
 */
const ICON_STYLE_TAG = `<style data-rc-order="prepend" rc-util-key="@ant-design-icons">${iconStyles}</style>`;

/**
 * antd's CSS variables as their own `<style data-css-hash>` elements. The browser's antd registers each
 * component's variables as it renders, without consulting the cache map: it looks for an element with
 * the same hash and inserts one only when there is none (13 on /user/home, in the hydration's commit,
 * into a head holding 220 kB of styles). Found in the page, they are kept as they are.
 */
function cssVarTags(cache: ReturnType<typeof createCache>): string {
  return extractStyle(cache, { types: ['cssVar'] }).replace(CACHE_MAP_TAG, '');
}
