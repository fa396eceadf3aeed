import type { AuthType } from './schemas/account';
import type { SessionUser } from './schemas/session';

/*
 * The contract between the web app's server renderer (apps/web/src/server-render/render-page.server.tsx,
 * built beside the web app by apps/web/build/server-bundle.ts) and the API that calls it for the pages
 * it renders (apps/api/src/http/server-render.ts, server-render-guest.ts): which pages are rendered, and the typed
 * input of each. The browser hydrates what the renderer returns (apps/web/src/main.tsx).
 */

/** The pages the server renders: `#root[data-server-rendered="<page>"]`, hydrated by the browser. */
export type ServerRenderedPage =
  'login' | 'home' | 'signup' | 'choose-subscription' | 'users-list' | 'subscription' | 'join';

/**
 * What the web app's renderPage takes for a signed-in visitor's page: the session's frame (as the
 * header shows it) and `get`, which asks the API's own routes for a tenant path (`/user/all?page=1`)
 * with the visitor's session, so the session, tenant and permission checks are the API's.
 */
export interface SessionRenderContext {
  user: SessionUser;
  authType: AuthType | null;
  tenant: string;
  /** GET /tenant/get's answer for the session (the header's school look); null when it is not read. */
  look?: unknown;
  /** GET /api/t/{tenant}{path} for the session: the answer's JSON; rejects on any other status than 2xx. */
  get(path: string): Promise<unknown>;
}

/**
 * What renderPage takes for a page rendered for nobody in particular (a signed-out visitor; the API
 * serves one render to every such visitor): no user, whether the server offers Google sign-in, and
 * `get`, which asks the API's public routes (`/guest/subscription/list`) without any session.
 */
export interface GuestRenderContext {
  user: null;
  google: boolean;
  /**
   * The white-label look of a guest page (POST /tenant/custom-branding-detail's answer for the
   * brand in the path, or for the custom domain the page is served on); null for Helix's look.
   */
  look?: unknown;
  /** GET /api{path} of a public route, without a session; rejects on any other status than 2xx. */
  get(path: string): Promise<unknown>;
}

export type ServerRenderContext = SessionRenderContext | GuestRenderContext;

/**
 * The web app's server bundle (apps/web/build/server-bundle.ts writes it beside dist/ as
 * SERVER_BUNDLE_FILE; apps/web/src/server-render/render-page.server.tsx implements it; the API imports it).
 */
export interface ServerBundle {
  /**
   * The whole document of `url` rendered for the context's visitor (a session, or a guest), its data
   * asked through `ctx.get` as the web app's route decides; null when the bundle does not render that
   * address for such a visitor or the web app's route guard would not show it. Rejects when the
   * render or a query fails.
   */
  renderPage(indexHtml: string, url: string, ctx: ServerRenderContext): Promise<string | null>;
}

/** The server bundle's file, in the folder beside the web app's dist/. */
export const SERVER_BUNDLE_DIR = 'dist-server';
export const SERVER_BUNDLE_FILE = 'render-page.server.js';
