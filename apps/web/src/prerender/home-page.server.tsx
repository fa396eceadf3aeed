import { createStore } from 'jotai';
import type { HomePageInput, ServerBundle, ServerBundlePages } from '@helix/shared/server-render';
import type { QueryClient } from '@tanstack/react-query';
import { BrandingView } from '@helix/shared/schemas/tenant';
import { createQueryClient } from '../api/query-client';
import { tenantLookKey } from '../branding/tenant-look';
import { seedFirstListing } from '../models/listing-seed';
import { resolveRedirect } from '../routing/guard';
import { planListQuery } from '../pages/subscription/subscription-queries';
import { toPlanList } from '../plans/plan-display';
import { SERVER_RENDERED_ROUTES } from '../server-render/route-prefetch';
import { authTypeAtom, sessionReadyAtom, sessionUserAtom } from '../session/session.atoms';
import { googleSignInAtom } from '../session/sign-in-providers';
import type { DrawnHomeData, DrawnPageData } from './drawn-data';
import { drawnDocument, withGoogleFlag } from './drawn-document';
import { renderRoute, type PrerenderedPage } from './render-route.server';

/** The bundle's interface and input: the typed hand-over contract the API imports (@helix/shared/server-render). */
export type { HomePageInput };

/** The app's own stylesheets of the home route's chunks (build/server-bundle.ts defines it). */
declare const __HOME_CSS__: string;
/** The same for the other pages the bundle draws, by page (build/server-bundle.ts defines it). */
declare const __PAGE_CSS__: Record<'users-list' | 'choose-subscription' | 'subscription', string>;

/** The drawn page's address. */
const HOME = '/user/home';

/**
 * The query client of a page rendered for a session, seeded with what every such page shows: the
 * header's school look (GET /tenant/get's answer, under the key the header asks it by), so the first
 * paint carries the school's logo, name and colour.
 */
function sessionQueries(input: { user: HomePageInput['user']; look?: unknown }): QueryClient {
  const queryClient = createQueryClient({ server: true });
  if (input.look !== undefined) {
    const look = BrandingView.safeParse(input.look);
    queryClient.setQueryData(tenantLookKey(input.user.tenant), look.success ? look.data : null);
  }
  return queryClient;
}

/**
 * The whole document of a signed-in user's home: index.html with the page drawn in #root, its styles,
 * and the grid's answer for the app that takes it over (src/prerender/drawn-data.ts). Null when the
 * app's route guard would not show this user the page (a platform admin, a user who must pick a plan
 * first...): the app shell then answers, and the guard moves them on as always.
 */
export const renderHomeDocument: ServerBundle['renderHomeDocument'] = async (indexHtml, input) => {
  if (resolveRedirect(HOME, { user: input.user, authType: input.authType, brand: null }) !== null)
    return null;
  const page = await renderHomePage(input);
  const css = `${page.css}\n${__HOME_CSS__}`;
  const data: DrawnHomeData = {
    tenant: input.tenant,
    userId: input.user.id,
    user: input.user,
    listing: input.listing,
    queries: page.queries,
  };
  return drawnDocument(indexHtml, { html: page.html, css }, 'home', data);
};

/**
 * A signed-in user's home (/user/home, the model grid) as the browser app renders it for them, drawn
 * by the API for the session cookie of a first visit (apps/api/src/http/drawn-home.ts) with the app's
 * own routes, guard, layout and grid. Runs in Node only, from the server bundle the build writes
 * (build/server-bundle.ts).
 */
export function renderHomePage(input: HomePageInput): Promise<PrerenderedPage> {
  const store = createStore();
  store.set(sessionUserAtom, input.user);
  store.set(authTypeAtom, input.authType);
  store.set(sessionReadyAtom, true);
  // The grid's first answer, as the page hands it to the app (the render is synchronous: the seed
  // belongs to this render only).
  return renderRoute(HOME, store, () => seedFirstListing(input.listing), sessionQueries(input));
}

/**
 * The whole document of `url` for a signed-in visitor, for the routes the server renders this way
 * (src/server-render/route-prefetch.ts): the route's data asked of the API with the visitor's session
 * (`ctx.get`) into the render's query client, the page rendered with the app's own routes and
 * components, and that client's dehydrated state carried for the browser's client. Null when the
 * route is not one of them or the app's route guard would not show this user the page.
 */
export const renderPage: ServerBundlePages['renderPage'] = async (indexHtml, url, ctx) => {
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
  const css = `${page.css}\n${__PAGE_CSS__[route.kind as keyof typeof __PAGE_CSS__] ?? ''}`;
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
export const renderChooseSubscriptionDocument: ServerBundlePages['renderChooseSubscriptionDocument'] = async (
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
  const css = `${page.css}\n${__PAGE_CSS__['choose-subscription']}`;
  const data: DrawnPageData = { queries: page.queries };
  return withGoogleFlag(
    drawnDocument(indexHtml, { html: page.html, css }, 'choose-subscription', data),
    input.google,
  );
};
