import type { AuthType } from './schemas/account';
import type { SessionUser } from './schemas/session';

/*
 * The contract between the web app's server renderer (apps/web/src/prerender/home-page.server.tsx,
 * built beside the web app by apps/web/build/server-bundle.ts) and the API that calls it for the pages
 * it renders (apps/api/src/http/drawn-home.ts, drawn-pages.ts): which pages are rendered, and the typed
 * input of each. The browser hydrates what the renderer returns (apps/web/src/main.tsx).
 */

/** The pages the server renders: `#root[data-prerendered="<page>"]`, hydrated by the browser. */
export const DRAWN_PAGES = [
  'login',
  'home',
  'signup',
  'choose-subscription',
  'users-list',
  'subscription',
] as const;
export type DrawnPage = (typeof DRAWN_PAGES)[number];

/**
 * What the web app's renderPage takes for a signed-in visitor's page: the session's frame (as the
 * header shows it) and `get`, which asks the API's own routes for a tenant path (`/user/all?page=1`)
 * with the visitor's session, so the session, tenant and permission checks are the API's.
 */
export interface ServerRenderContext {
  user: SessionUser;
  authType: AuthType | null;
  tenant: string;
  /** GET /tenant/get's answer for the session (the header's school look); null when it is not read. */
  look?: unknown;
  /** GET /api/t/{tenant}{path} for the session: the answer's JSON; rejects on any other status than 2xx. */
  get(path: string): Promise<unknown>;
}

/** What the server bundle takes to draw /choose-subscription for a signed-out visitor (the guest plans). */
export interface ChooseSubscriptionInput {
  /** GET /guest/subscription/list's answer, as JSON carries it. */
  plans: unknown;
  google: boolean;
}

/**
 * The web app's server bundle (apps/web/build/server-bundle.ts writes it beside dist/ as
 * SERVER_BUNDLE_FILE; apps/web/src/prerender/home-page.server.tsx implements it; the API imports it).
 */
export interface ServerBundle {
  /**
   * The whole document of `url` rendered for a signed-in visitor, its data asked through `ctx.get`
   * as the web app's route decides; null when the bundle does not render that address or the web
   * app's route guard would not show it. Rejects when the render or a query fails.
   */
  renderPage(indexHtml: string, url: string, ctx: ServerRenderContext): Promise<string | null>;
  /** /choose-subscription for a signed-out visitor on the portal's host. */
  renderChooseSubscriptionDocument(indexHtml: string, input: ChooseSubscriptionInput): Promise<string>;
}

/** The server bundle's file, in the folder beside the web app's dist/. */
export const SERVER_BUNDLE_DIR = 'dist-server';
export const SERVER_BUNDLE_FILE = 'home-page.server.js';
