import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { ServerBundle, ServerBundlePages, UsersListPageInput } from '@helix/shared/handover';
import { AUTH_TYPES } from '@helix/shared/schemas/account';
import type { ServerDeps } from '@helix/server/deps';
import { isPlatformAdmin } from '@helix/server/models/model.policy';
import { subscriptionSummary } from '@helix/server/billing/subscription-summary.query';
import { listGuestPlans, listTenantPlans } from '@helix/server/plans/list-plans.query';
import { viewsSummary } from '@helix/server/views/views-summary';
import { presentSessionUser } from '@helix/server/presenters/session-user.presenter';
import { isRedisUnavailable, redisOutageOf } from '@helix/server/redis';
import { authenticate } from '@helix/server/sessions/session.service';
import { pageTenantUsers } from '@helix/server/users/list-users.query';
import { TENANT_USERS_FIRST_PAGE } from '@helix/shared/schemas/tenant-user';
import { asJson, bundledHomeRenderer, cookie, COOKIE, sendHtml, withinLimit } from './drawn-home.ts';

/*
 * The further first screens the API draws with the web app's server bundle (issue 18 §14), as it draws
 * the home (drawn-home.ts): the same bundle, hand-over contract (@helix/shared/handover), per-session
 * draw limit and fallbacks. Any doubt answers with the app shell (`next()`).
 */

/** The server bundle with the pages beyond the home (a bundle from an older build may lack them). */
export type PagesRenderer = ServerBundle & Partial<ServerBundlePages>;

interface DrawnPageOptions {
  webDist: string;
  portalHost?: string;
  renderer?: () => Promise<PagesRenderer | null>;
}

/** index.html of the built app, read once (a rebuild is picked up by a restart, as web-app.ts says). */
function indexReader(webDist: string): () => string | null {
  const file = path.join(webDist, 'index.html');
  let html: string | null | undefined;
  return () => (html ??= existsSync(file) ? readFileSync(file, 'utf8') : null);
}

function failed(deps: ServerDeps, error: unknown, page: string): void {
  // A Redis outage is logged once by its outage state, not per page.
  if (isRedisUnavailable(error)) redisOutageOf(deps.redis)?.failed(error);
  else deps.logger.warn({ err: error }, `drawn ${page} failed; serving the app shell`);
}

/**
 * GET /user/settings/users-list on the portal's own host, for a browser holding a valid session cookie:
 * the owner's users list drawn by the web app's own components with the first page of GET /user/all
 * (TENANT_USERS_FIRST_PAGE, the page the app's list asks first) for the same session, carried in the
 * page so the app asks for nothing on its first render. The session and the permission are checked as
 * GET /api/t/{tenant}/user/all checks them (a platform admin's /user/all is the platform list: not
 * drawn), the tenant is the session's, and the web app's route guard decides as in the browser. No, expired or refused session, a custom domain, the draw limit, no bundle, a
 * failed query or render, Redis down: the app shell.
 */
type Actor = NonNullable<Awaited<ReturnType<typeof authenticate>>>;
/** The signed-in header's part of every drawn page's input. */
type Frame = Pick<UsersListPageInput, 'user' | 'authType' | 'tenant'>;

/**
 * The part every per-session drawn page shares: a session cookie on the portal's own host and no
 * parameters, the bundle and index.html, the session (never a platform admin's), the per-session draw
 * limit, the header's data (`frame`), the answer, and the app shell on any doubt or failure. `drawable`
 * says whether the bundle has the page and the session may see it (checked before the draw limit);
 * `draw` reads the page's data and renders; null for the app shell.
 */
function drawnSessionPage(
  deps: ServerDeps,
  options: DrawnPageOptions,
  page: string,
  drawable: (renderer: PagesRenderer, actor: Actor) => boolean,
  draw: (renderer: PagesRenderer, index: string, actor: Actor, frame: Frame) => Promise<string | null>,
): RequestHandler {
  const loadRenderer = options.renderer ?? bundledHomeRenderer(options.webDist);
  const readIndex = indexReader(options.webDist);
  return async (req, res, next) => {
    const token = cookie(req, COOKIE.apiToken);
    if (!token || req.hostname !== options.portalHost || req.url.includes('?')) return next();
    try {
      const renderer = (await loadRenderer()) as PagesRenderer | null;
      const index = readIndex();
      if (!renderer || index === null) return next();
      const actor = await authenticate(deps.db, token).catch(() => null);
      if (!actor || isPlatformAdmin(actor) || !drawable(renderer, actor)) return next();
      if (!(await withinLimit(deps, token))) return next();
      const authType = cookie(req, COOKIE.authType);
      const frame: Frame = {
        user: asJson(presentSessionUser(actor.user)),
        authType: AUTH_TYPES.find((t) => t === authType) ?? null,
        tenant: actor.tenant.domainPrefix,
      };
      const html = await draw(renderer, index, actor, frame);
      if (html === null) return next();
      sendHtml(req, res, html);
    } catch (error) {
      failed(deps, error, page);
      next();
    }
  };
}

/**
 * GET /user/settings/users-list on the portal's own host, for a browser holding a valid session cookie:
 * the owner's users list drawn by the web app's own components with the first page of GET /user/all
 * (TENANT_USERS_FIRST_PAGE, the page the app's list asks first) for the same session, carried in the
 * page so the app asks for nothing on its first render. The session and the permission are checked as
 * GET /api/t/{tenant}/user/all checks them (a platform admin's /user/all is the platform list: not
 * drawn), the tenant is the session's, and the web app's route guard decides as in the browser. No,
 * expired or refused session, a custom domain, the draw limit, no bundle, a failed query or render,
 * Redis down: the app shell.
 */
export function drawnUsersList(deps: ServerDeps, options: DrawnPageOptions): RequestHandler {
  return drawnSessionPage(
    deps,
    options,
    'users list',
    (renderer, actor) =>
      Boolean(renderer.renderUsersListDocument) && actor.permissions.includes('User.listing.view'),
    async (renderer, index, actor, frame) => {
      if (!renderer.renderUsersListDocument) return null;
      // The page the app's list asks first (GET /user/all?page=1&pageSize=20&sort=name&order=asc).
      const users = await pageTenantUsers(deps.db, actor, TENANT_USERS_FIRST_PAGE);
      return renderer.renderUsersListDocument(index, { ...frame, users: asJson(users) });
    },
  );
}

/**
 * GET /user/settings/subscription on the portal's own host, for a browser holding a valid session
 * cookie: the subscription page drawn with the answers the page asks for, each checked as its API route
 * checks it: GET /subscriptionplan/all (a session), GET /subscription/summary
 * (Subscription.listing.view) and GET /views/summary (Model.listing.view). A summary or usage that is
 * refused or cannot be read (Stripe down) is left out, as the page itself leaves it out, and the app
 * asks for it again once it starts. Everything else as the users list above.
 */
export function drawnSubscription(deps: ServerDeps, options: DrawnPageOptions): RequestHandler {
  return drawnSessionPage(
    deps,
    options,
    'subscription page',
    (renderer) => Boolean(renderer.renderSubscriptionDocument),
    async (renderer, index, actor, frame) => {
      if (!renderer.renderSubscriptionDocument) return null;
      const may = (permission: 'Subscription.listing.view' | 'Model.listing.view') =>
        actor.permissions.includes(permission);
      const [plans, summary, views] = await Promise.all([
        listTenantPlans(deps.db, actor),
        may('Subscription.listing.view') ? subscriptionSummary(deps, actor).catch(() => null) : null,
        may('Model.listing.view') ? viewsSummary(deps, actor).catch(() => null) : null,
      ]);
      return renderer.renderSubscriptionDocument(index, {
        ...frame,
        plans: asJson(plans),
        summary: asJson(summary),
        views: asJson(views),
      });
    },
  );
}

/** How long a drawn /choose-subscription is served before it is drawn again: the catalogue changes rarely. */
export const CHOOSE_SUBSCRIPTION_TTL_MS = 30_000;

/**
 * GET /choose-subscription on the portal's own host for a signed-out visitor (no session cookie, no
 * parameters): the plan step of the sign-up drawn with GET /guest/subscription/list's answer, the same
 * for every visitor. One drawing serves everyone; once it is older than CHOOSE_SUBSCRIPTION_TTL_MS the
 * next visitor still gets it while it is drawn again behind them, so no visitor waits for a drawing
 * but the very first (`warm`: drawn as the server starts). Signed in (a new sign-up continuing), a
 * brand in the path, a custom domain, no bundle, a failure: the app shell.
 */
export function drawnChooseSubscription(
  deps: ServerDeps,
  options: DrawnPageOptions & { googleSignIn?: boolean; now?: () => number; warm?: boolean },
): RequestHandler {
  const loadRenderer = options.renderer ?? bundledHomeRenderer(options.webDist);
  const readIndex = indexReader(options.webDist);
  const now = options.now ?? Date.now;
  let cached: { at: number; page: CompressedPage } | null = null;
  let drawing: Promise<CompressedPage | null> | null = null;

  const draw = async (): Promise<CompressedPage | null> => {
    const renderer = (await loadRenderer()) as PagesRenderer | null;
    const index = readIndex();
    if (!renderer?.renderChooseSubscriptionDocument || index === null) return null;
    const plans = asJson(await listGuestPlans(deps.db));
    const html = await renderer.renderChooseSubscriptionDocument(index, {
      plans,
      google: options.googleSignIn !== false,
    });
    return compressed(html);
  };
  /** One drawing at a time: visitors arriving meanwhile wait for the same one. */
  const redraw = (): Promise<CompressedPage | null> =>
    (drawing ??= draw()
      .then((page) => {
        if (page) cached = { at: now(), page };
        return page;
      })
      .finally(() => {
        drawing = null;
      }));

  if (options.warm) void redraw().catch((error: unknown) => failed(deps, error, '/choose-subscription'));

  return async (req, res, next) => {
    if (req.hostname !== options.portalHost || req.url.includes('?')) return next();
    if (cookie(req, COOKIE.apiToken)) return next();
    try {
      if (cached) {
        if (now() - cached.at > CHOOSE_SUBSCRIPTION_TTL_MS) {
          void redraw().catch((error: unknown) => failed(deps, error, '/choose-subscription'));
        }
        return sendPublicHtml(req, res, cached.page);
      }
      const page = await redraw();
      if (!page) return next();
      sendPublicHtml(req, res, page);
    } catch (error) {
      failed(deps, error, '/choose-subscription');
      next();
    }
  };
}

interface CompressedPage {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

const compressed = (html: string): CompressedPage => ({
  html,
  br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  gzip: gzipSync(html, { level: 9 }),
});

/** The same page for everyone: revalidated like index.html, chosen by the session cookie's absence. */
function sendPublicHtml(req: Request, res: Response, page: CompressedPage): void {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Vary', 'Cookie, Accept-Encoding');
  const accepts = req.acceptsEncodings('br', 'gzip');
  if (accepts === 'br') {
    res.setHeader('Content-Encoding', 'br');
    res.end(page.br);
  } else if (accepts === 'gzip') {
    res.setHeader('Content-Encoding', 'gzip');
    res.end(page.gzip);
  } else {
    res.end(page.html);
  }
}
