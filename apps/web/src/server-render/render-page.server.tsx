import { createStore } from 'jotai';
import type { ServerBundle, SessionRenderContext } from '@helix/shared/server-render';
import type { QueryClient } from '@tanstack/react-query';
import { BrandingView } from '@helix/shared/schemas/tenant';
import { createQueryClient } from '../api/query-client';
import { tenantLookKey } from '../branding/tenant-look';
import { resolveRedirect } from '../routing/guard';
import { serverRenderedRoute } from './route-prefetch';
import { authTypeAtom, sessionReadyAtom, sessionUserAtom } from '../session/session.atoms';
import { googleSignInAtom } from '../session/sign-in-providers';
import type { PageData } from './page-data';
import { pageAssetLinks, serverRenderedDocument, withGoogleFlag } from './document';
import { renderRoute } from './render-route.server';

type DrawnPage = 'home' | 'login' | 'users-list' | 'choose-subscription' | 'subscription' | 'join';
/** The app's own stylesheets of each page's route chunks, by page (build/server-bundle.ts defines it). */
declare const __PAGE_CSS__: Record<DrawnPage, string>;
/** Each page's route chunks and the stylesheets above, by file (build/server-bundle.ts defines it). */
declare const __PAGE_ASSETS__: Record<DrawnPage, { scripts: string[]; styles: string[] }>;

/** Each page's asset links, made once per index.html: they are the same for every render of the page. */
const linksByKind = new Map<DrawnPage, { indexHtml: string; links: string }>();

function assetLinks(kind: DrawnPage, indexHtml: string): string {
  const assets = __PAGE_ASSETS__[kind];
  if (!assets) return '';
  const made = linksByKind.get(kind);
  if (made?.indexHtml === indexHtml) return made.links;
  const links = pageAssetLinks(indexHtml, assets);
  linksByKind.set(kind, { indexHtml, links });
  return links;
}

/**
 * The query client of a page rendered for a session, seeded with what every such page shows: the
 * header's school look (GET /tenant/get's answer, under the key the header asks it by), so the first
 * paint carries the school's logo, name and colour.
 */
function sessionQueries(input: SessionRenderContext): QueryClient {
  const queryClient = createQueryClient({ server: true });
  if (input.look !== undefined) {
    const look = BrandingView.safeParse(input.look);
    queryClient.setQueryData(tenantLookKey(input.user.tenant), look.success ? look.data : null);
  }
  return queryClient;
}

/**
 * The whole document of `url` for the context's visitor, for the routes the server renders this way
 * (src/server-render/route-prefetch.ts): the route's data asked of the API (`ctx.get`: with the
 * visitor's session, or a guest's public routes) into the render's query client, the page rendered
 * with the app's own routes and components, and that client's dehydrated state carried for the
 * browser's client. Null when the route is not one of them, is not for this kind of visitor (a
 * signed-in page for a guest, a guest page for a session), or the app's route guard would not show
 * this user the page.
 */
export const renderPage: ServerBundle['renderPage'] = async (indexHtml, url, ctx) => {
  const path = new URL(url, 'http://localhost').pathname;
  const found = serverRenderedRoute(path);
  if (!found) return null;
  const { route, params } = found;
  const store = createStore();
  store.set(sessionReadyAtom, true);
  let queryClient: QueryClient;
  let data: PageData;
  if (route.guest) {
    if (ctx.user !== null) return null;
    store.set(googleSignInAtom, ctx.google);
    queryClient = createQueryClient({ server: true });
    await route.prefetch(queryClient, ctx, params);
    data = {};
  } else {
    if (ctx.user === null) return null;
    if (resolveRedirect(path, { user: ctx.user, authType: ctx.authType, brand: null }) !== null) return null;
    store.set(sessionUserAtom, ctx.user);
    store.set(authTypeAtom, ctx.authType);
    queryClient = sessionQueries(ctx);
    await route.prefetch(queryClient, ctx, params);
    data = { tenant: ctx.tenant, userId: ctx.user.id, user: ctx.user };
  }
  const page = await renderRoute(path, store, undefined, queryClient);
  const kind = route.kind as DrawnPage;
  const css = `${page.css}\n${__PAGE_CSS__[kind] ?? ''}`;
  const links = assetLinks(kind, indexHtml);
  const html = serverRenderedDocument(
    indexHtml,
    { html: page.html, css, styleTags: page.styleTags, links },
    route.kind,
    {
      ...data,
      queries: page.queries,
    },
  );
  return ctx.user === null ? withGoogleFlag(html, ctx.google) : html;
};

/** The share and embed pages' renderer: pages are rendered in this one bundle (./link-page.server.tsx). */
export { renderLinkPage } from './link-page.server';
