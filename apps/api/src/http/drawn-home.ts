import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import { AUTH_TYPES } from '@helix/shared/schemas/account';
import {
  SERVER_BUNDLE_DIR,
  SERVER_BUNDLE_FILE,
  type HomePageInput,
  type ServerBundle as HomeRenderer,
  type ServerBundlePages,
} from '@helix/shared/server-render';
import { ModelListQuery } from '@helix/shared/schemas/model';
import type { ServerDeps } from '@helix/server/deps';
import { listModels } from '@helix/server/models/list-models.query';
import { isPlatformAdmin } from '@helix/server/models/model.policy';
import { isRedisUnavailable, redisKey, redisOutageOf } from '@helix/server/redis';
import { sha256 } from '@helix/server/tokens';
import { presentSessionUser } from '@helix/server/presenters/session-user.presenter';
import { authenticate } from '@helix/server/sessions/session.service';
import { tenantBranding } from '@helix/server/tenants/branding.query';
import { readCookie } from './oauth-cookie.ts';

/** The web app's cookies (apps/web/src/session/storage-keys.ts). */
export const COOKIE = { apiToken: 'apiToken', authType: 'auth-type' } as const;

/** The web app's server bundle and what it takes: the typed hand-over contract (@helix/shared/server-render). */
export type { HomePageInput, ServerBundle as HomeRenderer } from '@helix/shared/server-render';

/** The server bundle next to the built web app, loaded once; null when the build has none. */
export function bundledHomeRenderer(webDist: string): () => Promise<HomeRenderer | null> {
  const file = path.resolve(webDist, '..', SERVER_BUNDLE_DIR, SERVER_BUNDLE_FILE);
  let loaded: Promise<HomeRenderer | null> | undefined;
  return () =>
    (loaded ??= existsSync(file)
      ? (import(pathToFileURL(file).href) as Promise<HomeRenderer>)
      : Promise.resolve(null));
}

export const cookie = (req: Request, name: string): string | undefined => {
  const raw = readCookie(req, name);
  try {
    return raw === undefined ? undefined : decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};

/** Drawn pages per session and minute; beyond it the static shell answers (reloads cannot load the server). */
export const DRAWN_HOME_PER_MINUTE = 30;

/**
 * Counts a draw for the session; false once it is over the limit, or at once while Redis is known to be
 * down (a Redis failure: the shell, below).
 */
export async function withinLimit(deps: ServerDeps, token: string): Promise<boolean> {
  if (redisOutageOf(deps.redis)?.down) return false;
  const key = redisKey(deps.config.REDIS_PREFIX, 'drawn-home', sha256(token));
  const count = await deps.redis.incr(key);
  if (count === 1) await deps.redis.expire(key, 60);
  return count <= DRAWN_HOME_PER_MINUTE;
}

/** JSON's own round trip: the page is drawn with exactly what the browser app would receive. */
export const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export function sendHtml(req: Request, res: Response, html: string): void {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  // Personal: never stored by the browser's cache or a proxy, and never served for another cookie.
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Vary', 'Cookie, Accept-Encoding');
  endCompressed(req, res, html);
}

/** Ends the answer with `html` in the best encoding the browser accepts (brotli 5, gzip 6, or none). */
export function endCompressed(req: Request, res: Response, html: string): void {
  const accepts = req.acceptsEncodings('br', 'gzip');
  if (accepts === 'br') {
    res.setHeader('Content-Encoding', 'br');
    res.end(brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
  } else if (accepts === 'gzip') {
    res.setHeader('Content-Encoding', 'gzip');
    res.end(gzipSync(html, { level: 6 }));
  } else {
    res.end(html);
  }
}

/** The server bundle with the pages beyond the home (a bundle from an older build may lack them). */
export type PagesRenderer = HomeRenderer & Partial<ServerBundlePages>;

export interface DrawnPageOptions {
  webDist: string;
  portalHost?: string;
  renderer?: () => Promise<PagesRenderer | null>;
}

/** index.html of the built app, read once (a rebuild is picked up by a restart, as web-app.ts says). */
export function indexReader(webDist: string): () => string | null {
  const file = path.join(webDist, 'index.html');
  let html: string | null | undefined;
  return () => (html ??= existsSync(file) ? readFileSync(file, 'utf8') : null);
}

/** An API answer a server render asked for and was refused (or could not get): the app shell answers. */
export class RefusedAnswer extends Error {
  constructor(readonly status: number) {
    super(`the API answered ${status}`);
  }
}

export function drawnPageFailed(deps: ServerDeps, error: unknown, page: string): void {
  // A Redis outage is logged once by its outage state, not per page.
  if (isRedisUnavailable(error)) redisOutageOf(deps.redis)?.failed(error);
  // A refusal is the API's own answer to this session (no permission...), not a failure.
  else if (error instanceof RefusedAnswer) deps.logger.debug({ status: error.status }, `${page}: app shell`);
  else deps.logger.warn({ err: error }, `drawn ${page} failed; serving the app shell`);
}

type Actor = NonNullable<Awaited<ReturnType<typeof authenticate>>>;
/** The signed-in header's part of every drawn page's input. */
type Frame = Pick<HomePageInput, 'user' | 'authType' | 'tenant' | 'look'>;

/**
 * The part every per-session drawn page shares (the home below, the users list and the subscription
 * page in drawn-pages.ts): a session cookie on the portal's own host and no parameters (a link with
 * parameters, such as the usage e-mail's /user/home?buy-views=1, asks the app for more than the page:
 * the app shell, which starts at once), the bundle and index.html, the session (never a platform
 * admin's: the web app's route guard sends them elsewhere), the per-session draw limit, the header's
 * data (`frame`), the answer, and the app shell on any doubt or failure. `drawable` says whether the
 * bundle has the page and the session may see it (checked before the draw limit); `draw` reads the
 * page's data and renders; null for the app shell.
 */
export function drawnSessionPage(
  deps: ServerDeps,
  options: DrawnPageOptions,
  page: string,
  drawable: (renderer: PagesRenderer, actor: Actor) => boolean,
  draw: (
    renderer: PagesRenderer,
    index: string,
    actor: Actor,
    frame: Frame,
    req: Request,
  ) => Promise<string | null>,
): RequestHandler {
  const loadRenderer = options.renderer ?? bundledHomeRenderer(options.webDist);
  const readIndex = indexReader(options.webDist);
  return async (req, res, next) => {
    const token = cookie(req, COOKIE.apiToken);
    if (!token || req.hostname !== options.portalHost || req.url.includes('?')) return next();
    try {
      const renderer = await loadRenderer();
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
        // The header's school look, read as GET /tenant/get reads it; a failure leaves Helix's.
        look: asJson(await tenantBranding(deps.db, actor).catch(() => null)),
      };
      const html = await draw(renderer, index, actor, frame, req);
      if (html === null) return next();
      sendHtml(req, res, html);
    } catch (error) {
      drawnPageFailed(deps, error, page);
      next();
    }
  };
}

/**
 * GET /user/home on the portal's own host, for a browser holding a valid session cookie: the home
 * page (the model grid) drawn by the web app's own components for that user, with the grid's first
 * answer (apps/web/src/prerender/home-page.server.tsx), so a classroom tablet paints the page with the
 * HTML and the app starts on first use (apps/web/src/boot.ts). The session, tenant and permission are
 * checked as GET /model/all checks them. Anything else falls through to the app shell, which handles
 * it as before: no or expired session, a user who may not list models, a user the web app's route
 * guard sends elsewhere, a custom domain, an address with parameters, more than DRAWN_HOME_PER_MINUTE
 * draws a minute for the session, no built app or server bundle, a render that fails, Redis down
 * (drawnSessionPage). Once the service worker is installed, it answers navigations with the shell
 * itself and this is not asked.
 */
export function drawnHome(deps: ServerDeps, options: DrawnPageOptions): RequestHandler {
  return drawnSessionPage(
    deps,
    options,
    'home page',
    (_renderer, actor) => actor.permissions.includes('Model.listing.view'),
    async (renderer, index, actor, frame) => {
      const listing = await listModels(deps, actor, ModelListQuery.parse({}));
      return renderer.renderHomeDocument(index, { ...frame, listing: asJson(listing) });
    },
  );
}
