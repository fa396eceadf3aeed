import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router-dom';
import { BrandingView } from '@helix/shared/schemas/tenant';
import { whiteLabelKey } from '../branding/use-white-label';
import type {
  ServerRenderedPage,
  GuestRenderContext,
  SessionRenderContext,
} from '@helix/shared/server-render';
import { TENANT_USERS_FIRST_PAGE, TenantUserPage } from '@helix/shared/schemas/tenant-user';
import { SubscriptionSummaryView } from '@helix/shared/schemas/billing';
import { DEFAULT_MODEL_SORT, type ViewsSummary } from '@helix/shared/schemas/model';
import { modelListingQuery } from '../models/listing-query';
import { modelListPath, toListing } from '../models/models.api';
import { planListQuery, summaryQuery, viewsSummaryQuery } from '../pages/subscription/subscription-queries';
import { toPlanList } from '../plans/plan-display';
import { abilitiesOf } from '../session/session-user';
import { serverListKey, withListQuery } from '../ui/use-server-list';

/** The address's parameters (`/login/:brand`'s brand). */
type RouteParams = Record<string, string | undefined>;

/** A page the server renders through renderPage: its kind (`#root[data-server-rendered]`) and its data. */
export type ServerRenderedRoute =
  | {
      kind: ServerRenderedPage;
      /** A signed-in visitor's page, rendered for their session. */
      guest?: false;
      /**
       * Fills the render's query client with what the page shows first, under the keys its components
       * ask them by, each asked of the API with the visitor's session (`ctx.get`). A refusal or
       * failure throws: the API then answers the app shell.
       */
      prefetch(queryClient: QueryClient, ctx: SessionRenderContext, params: RouteParams): Promise<unknown>;
    }
  | {
      kind: ServerRenderedPage;
      /** A signed-out visitor's page: one render for every such visitor (the API caches it). */
      guest: true;
      /** The same, asked of the API's public routes (`ctx.get`). */
      prefetch(queryClient: QueryClient, ctx: GuestRenderContext, params: RouteParams): Promise<unknown>;
    };

/**
 * The routes renderPage renders, by path. The users list: GET /user/all's first page
 * (TENANT_USERS_FIRST_PAGE), under the key the page's list asks it by (src/ui/use-server-list.ts,
 * `snapshot: 'tenant-users'`, no filters).
 */
const SERVER_RENDERED_ROUTES: Record<string, ServerRenderedRoute> = {
  /**
   * A school's login: /login/{brand} on any host, /login on its custom domain (the portal's own
   * /login is rendered at build time). The look the API resolved (`ctx.look`) under the white-label
   * query's key, so the first paint carries the school's logo, name and colours.
   */
  '/login/:brand': { kind: 'login', guest: true, prefetch: seedWhiteLabel },
  '/login': { kind: 'login', guest: true, prefetch: seedWhiteLabel },
  /**
   * A pupil's way into a live lesson (/join, and /join/{code} from the teacher's link or QR code):
   * the form drawn at once on a classroom tablet, in the school's look on its custom domain.
   */
  '/join': { kind: 'join', guest: true, prefetch: seedWhiteLabel },
  '/join/:code': { kind: 'join', guest: true, prefetch: seedWhiteLabel },
  /** The sign-up's plan step for a signed-out visitor: the guest plans, under the plan list's key. */
  '/choose-subscription': {
    kind: 'choose-subscription',
    guest: true,
    prefetch: (queryClient, ctx) =>
      queryClient.ensureQueryData({
        queryKey: planListQuery('guest').queryKey,
        queryFn: async () => toPlanList(await ctx.get('/guest/subscription/list')),
      }),
  },
  /**
   * The home's model grid: GET /model/all with no search and the default sort, as the grid asks it
   * first, under the grid's key (src/models/listing-query.ts). A user who may not list models is
   * refused by the API (403): the app shell.
   */
  '/user/home': {
    kind: 'home',
    prefetch: (queryClient, ctx) =>
      queryClient.ensureQueryData({
        queryKey: modelListingQuery('', DEFAULT_MODEL_SORT).queryKey,
        queryFn: async () => ({
          search: '',
          sort: DEFAULT_MODEL_SORT,
          ...toListing(await ctx.get(modelListPath({ sort: DEFAULT_MODEL_SORT }))),
        }),
      }),
  },
  '/user/settings/users-list': {
    kind: 'users-list',
    prefetch: (queryClient, ctx) =>
      queryClient.ensureQueryData({
        queryKey: serverListKey('tenant-users', TENANT_USERS_FIRST_PAGE, []),
        queryFn: async () => ({
          data: TenantUserPage.parse(await ctx.get(withListQuery('/user/all', TENANT_USERS_FIRST_PAGE))),
          savedAt: null,
        }),
      }),
  },
  /**
   * The subscription page: the tenant's plans (a refusal or failure: the app shell), and the summary
   * and the period's usage, each left out when the API refuses or cannot read it (Stripe down), as
   * the page leaves it out; the app asks for what is missing once it starts.
   */
  '/user/settings/subscription': {
    kind: 'subscription',
    prefetch: (queryClient, ctx) =>
      Promise.all([
        queryClient.ensureQueryData({
          queryKey: planListQuery('tenant').queryKey,
          queryFn: async () => toPlanList(await ctx.get('/subscriptionplan/all')),
        }),
        abilitiesOf(ctx.user).billing &&
          queryClient.prefetchQuery({
            queryKey: summaryQuery.queryKey,
            queryFn: async () => SubscriptionSummaryView.parse(await ctx.get('/subscription/summary')),
          }),
        queryClient.prefetchQuery({
          queryKey: viewsSummaryQuery.queryKey,
          queryFn: async () => (await ctx.get('/views/summary')) as ViewsSummary,
        }),
      ]),
  },
};

/** The white-label look a guest page was rendered with, under the key its layout asks it by. */
function seedWhiteLabel(
  queryClient: QueryClient,
  ctx: GuestRenderContext,
  params: RouteParams,
): Promise<void> {
  const look = BrandingView.safeParse(ctx.look);
  queryClient.setQueryData(whiteLabelKey(params.brand ?? null), look.success ? look.data : null);
  return Promise.resolve();
}

/** The route renderPage renders at `path`, with its parameters; null when it renders none there. */
export function serverRenderedRoute(
  path: string,
): { route: ServerRenderedRoute; params: RouteParams } | null {
  for (const [pattern, route] of Object.entries(SERVER_RENDERED_ROUTES)) {
    const match = matchPath(pattern, path);
    if (match) return { route, params: match.params };
  }
  return null;
}
