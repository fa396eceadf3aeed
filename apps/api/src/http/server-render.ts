import type { Request, RequestHandler } from 'express';
import { AUTH_TYPES } from '@helix/shared/schemas/account';
import type { ServerRenderContext } from '@helix/shared/server-render';
import type { ServerDeps } from '@helix/server/deps';
import { isPlatformAdmin } from '@helix/server/models/model.policy';
import { presentSessionUser } from '@helix/server/presenters/session-user.presenter';
import { authenticate } from '@helix/server/sessions/session.service';
import { tenantBranding } from '@helix/server/tenants/branding.query';
import {
  asJson,
  loadServerBundle,
  cookie,
  COOKIE,
  serverRenderFailed,
  indexReader,
  loopbackGet,
  originOf,
  sendHtml,
  withinLimit,
  type ServerRenderOptions,
} from './server-render-support.ts';

/**
 * `GET /api/t/{tenant}{path}` asked of this very server (its own loopback address and port) with the
 * visitor's session token, so what a server render shows passes the API's own routes: session,
 * tenant and permission checks, presenters and abilities exactly as the browser app's call would.
 * Anything but a 2xx answer rejects (RefusedAnswer).
 */
function sessionGet(req: Request, token: string, tenant: string): (path: string) => Promise<unknown> {
  const get = loopbackGet(originOf(req), { authorization: `Bearer ${token}` });
  return async (path) => {
    if (!path.startsWith('/')) throw new Error(`server render: ${path} is not a tenant path`);
    return get(`/api/t/${encodeURIComponent(tenant)}${path}`);
  };
}

/**
 * A page of the web app rendered on the server for the session cookie's visitor (the home's model
 * grid, the users list, the subscription page: app.ts mounts one per route) by the web bundle's one
 * entry, renderPage(url, context): the web app's route decides what it asks (through `sessionGet`, so
 * the session, tenant and permission are checked as the page's own API calls check them), renders
 * and hands its answers to the browser as the query client's dehydrated state; the browser hydrates
 * it as soon as the code has loaded (apps/web/src/main.tsx).
 *
 * Only a session cookie on the portal's own host and an address without parameters (a link with
 * parameters, such as the usage e-mail's /user/home?buy-views=1, asks the app for more than the page);
 * never a platform admin's session (the web app's route guard sends them elsewhere); at most
 * SERVER_RENDERS_PER_MINUTE renders a minute per session. Anything else answers the app shell (`next()`),
 * which handles it as before: no or expired session, an API refusal (a user who may not see the
 * page), a route the web app does not render or whose guard sends the user elsewhere, a custom domain,
 * no built app or server bundle, a render that fails, Redis down. Once the service worker is
 * installed, it answers navigations with the shell itself and this is not asked.
 */
export function serverRenderedPage(
  deps: ServerDeps,
  options: ServerRenderOptions,
  page: string,
): RequestHandler {
  const loadRenderer = options.renderer ?? loadServerBundle(options.webDist);
  const readIndex = indexReader(options.webDist);
  return async (req, res, next) => {
    const token = cookie(req, COOKIE.apiToken);
    if (!token || req.hostname !== options.portalHost || req.url.includes('?')) return next();
    try {
      const renderer = await loadRenderer();
      const index = readIndex();
      if (!renderer || index === null) return next();
      const actor = await authenticate(deps.db, token).catch(() => null);
      if (!actor || isPlatformAdmin(actor)) return next();
      if (!(await withinLimit(deps, token))) return next();
      const authType = cookie(req, COOKIE.authType);
      const tenant = actor.tenant.domainPrefix;
      const ctx: ServerRenderContext = {
        user: asJson(presentSessionUser(actor.user)),
        authType: AUTH_TYPES.find((t) => t === authType) ?? null,
        tenant,
        // The header's school look, read as GET /tenant/get reads it; a failure leaves Helix's.
        look: asJson(await tenantBranding(deps.db, actor).catch(() => null)),
        get: sessionGet(req, token, tenant),
      };
      const html = await renderer.renderPage(index, req.path, ctx);
      if (html === null) return next();
      sendHtml(req, res, html);
    } catch (error) {
      serverRenderFailed(deps, error, page);
      next();
    }
  };
}
