import { createStore } from 'jotai';
import type { ServerBundle, ServerRenderContext } from '@helix/shared/server-render';
import type { QueryClient } from '@tanstack/react-query';
import { BrandingView } from '@helix/shared/schemas/tenant';
import { createQueryClient } from '../api/query-client';
import { tenantLookKey } from '../branding/tenant-look';
import { resolveRedirect } from '../routing/guard';
import { planListQuery } from '../pages/subscription/subscription-queries';
import { toPlanList } from '../plans/plan-display';
import { SERVER_RENDERED_ROUTES } from '../server-render/route-prefetch';
import { authTypeAtom, sessionReadyAtom, sessionUserAtom } from '../session/session.atoms';
import { googleSignInAtom } from '../session/sign-in-providers';
import type { DrawnPageData } from './drawn-data';
import { drawnDocument, withGoogleFlag } from './drawn-document';
import { renderRoute, type PrerenderedPage } from './render-route.server';
import { usedCss } from './used-css';

/** The app's own stylesheets of each page's route chunks, by page (build/server-bundle.ts defines it). */
declare const __PAGE_CSS__: Record<'home' | 'users-list' | 'choose-subscription' | 'subscription', string>;

/** Pruned styles by the set of classes a page uses: pages of the same components share one entry. */
const cssCache = new Map<string, string>();
const CSS_CACHE_MAX = 64;

async function prunedCss(page: PrerenderedPage): Promise<string> {
  // What PurgeCSS matches selectors against: classes, ids, element and attribute names.
  const words = new Set<string>();
  for (const [, list] of page.html.matchAll(/class="([^"]*)"/g))
    for (const c of list!.split(/\s+/)) words.add(c);
  for (const [name] of page.html.matchAll(/<[a-z][a-z0-9-]*|\s[a-zA-Z-]+(?==)|id="[^"]*"/g)) words.add(name);
  const key = `${page.css.length}:${[...words].sort().join(' ')}`;
  const hit = cssCache.get(key);
  if (hit !== undefined) return hit;
  const css = await usedCss(page.html, page.css);
  if (cssCache.size >= CSS_CACHE_MAX) cssCache.delete(cssCache.keys().next().value!);
  cssCache.set(key, css);
  return css;
}

/**
 * The query client of a page rendered for a session, seeded with what every such page shows: the
 * header's school look (GET /tenant/get's answer, under the key the header asks it by), so the first
 * paint carries the school's logo, name and colour.
 */
function sessionQueries(input: { user: ServerRenderContext['user']; look?: unknown }): QueryClient {
  const queryClient = createQueryClient({ server: true });
  if (input.look !== undefined) {
    const look = BrandingView.safeParse(input.look);
    queryClient.setQueryData(tenantLookKey(input.user.tenant), look.success ? look.data : null);
  }
  return queryClient;
}

/**
 * The whole document of `url` for a signed-in visitor, for the routes the server renders this way
 * (src/server-render/route-prefetch.ts): the route's data asked of the API with the visitor's session
 * (`ctx.get`) into the render's query client, the page rendered with the app's own routes and
 * components, and that client's dehydrated state carried for the browser's client. Null when the
 * route is not one of them or the app's route guard would not show this user the page.
 */
export const renderPage: ServerBundle['renderPage'] = async (indexHtml, url, ctx) => {
  const path = new URL(url, 'http://localhost').pathname;
  const route = SERVER_RENDERED_ROUTES[path];
  if (!route) return null;
  if (resolveRedirect(path, { user: ctx.user, authType: ctx.authType, brand: null }) !== null) return null;
  const store = createStore();
  store.set(sessionUserAtom, ctx.user);
  store.set(authTypeAtom, ctx.authType);
  store.set(sessionReadyAtom, true);
  const queryClient = sessionQueries(ctx);
  await route.prefetch(queryClient, ctx);
  const page = await renderRoute(path, store, undefined, queryClient);
  const css = `${await prunedCss(page)}\n${__PAGE_CSS__[route.kind as keyof typeof __PAGE_CSS__] ?? ''}`;
  const data: DrawnPageData = {
    tenant: ctx.tenant,
    userId: ctx.user.id,
    user: ctx.user,
    queries: page.queries,
  };
  return drawnDocument(indexHtml, { html: page.html, css }, route.kind, data);
};

/**
 * /choose-subscription for a signed-out visitor on the portal's host, with the guest plans (GET
 * /guest/subscription/list's answer), drawn by the API (the same for every visitor, so it caches it).
 */
export const renderChooseSubscriptionDocument: ServerBundle['renderChooseSubscriptionDocument'] = async (
  indexHtml,
  input,
) => {
  const store = createStore();
  store.set(sessionReadyAtom, true);
  store.set(googleSignInAtom, input.google);
  // The guest plans under the key the plan list asks them by, handed over as the dehydrated state.
  const queryClient = createQueryClient({ server: true });
  queryClient.setQueryData(planListQuery('guest').queryKey, toPlanList(input.plans));
  const page = await renderRoute('/choose-subscription', store, undefined, queryClient);
  const css = `${await prunedCss(page)}\n${__PAGE_CSS__['choose-subscription']}`;
  const data: DrawnPageData = { queries: page.queries };
  return withGoogleFlag(
    drawnDocument(indexHtml, { html: page.html, css }, 'choose-subscription', data),
    input.google,
  );
};
