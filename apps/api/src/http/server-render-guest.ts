import type { Request, RequestHandler, Response } from 'express';
import type { GuestRenderContext } from '@helix/shared/server-render';
import { LESSON_CODE_ALPHABET, LESSON_LIMITS } from '@helix/shared/lessons';
import type { ServerDeps } from '@helix/server/deps';
import { AppError } from '@helix/server/errors';
import { brandingVersion } from '@helix/server/tenants/branding-version';
import { customBrandingDetail } from '@helix/server/tenants/custom-branding-detail.query';
import {
  loadServerBundle,
  cookie,
  COOKIE,
  serverRenderFailed,
  indexReader,
  RefusedAnswer,
  compressedOnce,
  loopbackGet,
  originOf,
  sendEncoded,
  type EncodedPage,
  type ServerRenderOptions,
} from './server-render-support.ts';

/** How long a guest page's render is served before it is rendered again: the catalogue changes rarely. */
export const GUEST_PAGE_TTL_MS = 30_000;

/**
 * `GET /api{path}` of a public route asked of this very server (`origin`: its own loopback address
 * and port), without any session: what a guest page shows is what the API's public route answers
 * anyone. Only `/guest/` paths; anything but a 2xx answer rejects (RefusedAnswer).
 */
export function guestGet(origin: string): (path: string) => Promise<unknown> {
  const get = loopbackGet(origin);
  return async (path) => {
    if (!path.startsWith('/guest/')) throw new Error(`server render: ${path} is not a guest path`);
    return get(`/api${path}`);
  };
}

/** What a guest render of one request is: its cache key, the address rendered, and its look. */
export interface GuestTarget {
  /** One render per key (the path, and for a branded login the host and brand). */
  key: string;
  path: string;
  /** The white-label look, read when the page is (re)rendered; null for Helix's look. */
  look?: () => Promise<unknown>;
  /**
   * The look's version, read at every request: a render made at another version is not served (the
   * visitor waits for a new one), so a change of look shows at the next load. Null: unknown (Redis
   * down), the render is served within its lifetime as without a version.
   */
  version?: () => Promise<string | null>;
}

export interface GuestRenderedPage {
  /** The page: mount it on its path. */
  page: RequestHandler;
  /**
   * Renders `warm`'s target at the server's first request of any kind (the start-up's health check),
   * so no visitor waits for the first render: mount it before every other route.
   */
  warm: RequestHandler;
}

/** The target's look version; null without one, or when it cannot be read. */
const versionOf = (to: GuestTarget): Promise<string | null> =>
  to.version ? to.version().catch(() => null) : Promise.resolve(null);

/** Renders kept per page (a branded login per host and brand): the oldest is dropped beyond it. */
const GUEST_RENDERS_MAX = 500;

/**
 * A page of the web app rendered on the server for signed-out visitors (/choose-subscription, a
 * school's login) by the web bundle's renderPage with a guest context (no user; `get` asks the
 * API's public routes; the white-label look): one render per target serves every visitor without a
 * session cookie and without parameters. Once it is older than GUEST_PAGE_TTL_MS the next visitor
 * still gets it while it is rendered again behind them, so no visitor waits for a render but the
 * very first (`warm`); a render made at another version of its look (GuestTarget.version: a school's
 * branding was changed, in any API process) is rendered again before it is served. `target` says what
 * a request is (null: not this page, the app shell). Signed in, parameters, no bundle, a refusal or a
 * failure: the app shell (`next()`).
 */
export function guestRenderedPage(
  deps: ServerDeps,
  options: ServerRenderOptions & { googleSignIn?: boolean; now?: () => number; warm?: GuestTarget },
  target: (req: Request) => GuestTarget | null,
): GuestRenderedPage {
  const loadRenderer = options.renderer ?? loadServerBundle(options.webDist);
  const readIndex = indexReader(options.webDist);
  const now = options.now ?? Date.now;
  const cached = new Map<string, { at: number; version: string | null; page: EncodedPage }>();
  /** The renders under way, by target and version. */
  const rendering = new Map<string, Promise<EncodedPage | null>>();

  const render = async (origin: string, to: GuestTarget): Promise<EncodedPage | null> => {
    const renderer = await loadRenderer();
    const index = readIndex();
    if (!renderer || index === null) return null;
    const ctx: GuestRenderContext = {
      user: null,
      google: options.googleSignIn !== false,
      look: to.look ? await to.look() : null,
      get: guestGet(origin),
    };
    const html = await renderer.renderPage(index, to.path, ctx);
    return html === null ? null : compressedOnce(html);
  };
  /** One render per target and version at a time: visitors arriving meanwhile wait for the same one. */
  const rerender = (origin: string, to: GuestTarget, version: string | null): Promise<EncodedPage | null> => {
    const id = `${to.key}\u0000${version}`;
    const pending = rendering.get(id);
    if (pending) return pending;
    const next = render(origin, to)
      .then((page) => {
        cached.delete(to.key);
        if (page) cached.set(to.key, { at: now(), version, page });
        if (cached.size > GUEST_RENDERS_MAX) cached.delete(cached.keys().next().value!);
        return page;
      })
      .finally(() => rendering.delete(id));
    rendering.set(id, next);
    return next;
  };
  const behind = (origin: string, to: GuestTarget, version: string | null) =>
    void rerender(origin, to, version).catch((error: unknown) => serverRenderFailed(deps, error, to.path));

  let warmed = false;
  const warm: RequestHandler = (req, _res, next) => {
    if (!warmed && options.warm) {
      warmed = true;
      const to = options.warm;
      void versionOf(to).then((version) => behind(originOf(req), to, version));
    }
    next();
  };

  const page: RequestHandler = async (req, res, next) => {
    if (req.url.includes('?') || cookie(req, COOKIE.apiToken)) return next();
    const to = target(req);
    if (!to) return next();
    try {
      const version = await versionOf(to);
      const hit = cached.get(to.key);
      if (hit && (hit.version === version || version === null)) {
        if (now() - hit.at > GUEST_PAGE_TTL_MS) behind(originOf(req), to, version);
        return sendPublicHtml(req, res, hit.page);
      }
      const rendered = await rerender(originOf(req), to, version);
      if (!rendered) return next();
      sendPublicHtml(req, res, rendered);
    } catch (error) {
      serverRenderFailed(deps, error, to.path);
      next();
    }
  };
  return { page, warm };
}

/** /choose-subscription on the portal's own host: the sign-up's plan step, one render for everyone. */
export const CHOOSE_SUBSCRIPTION: GuestTarget = { key: '/choose-subscription', path: '/choose-subscription' };

/**
 * A school's login: /login/{brand} on any host, /login on a tenant's custom domain (the portal's own
 * /login is the build's login.html), with the look POST /tenant/custom-branding-detail answers for
 * it (customBrandingDetail: by brand name, else by host), kept per version of the looks (bumped by
 * every branding update, branding-version.ts), so a change shows at the next load. An unknown brand or
 * a host without a white label: the app shell, as before.
 */
export function brandedLogin(deps: ServerDeps, portalHost: string | undefined) {
  return (req: Request): GuestTarget | null => {
    const brand = typeof req.params.brand === 'string' ? req.params.brand : undefined;
    if (!brand && req.hostname === portalHost) return null;
    const lookup = () =>
      customBrandingDetail(deps, brand ? { brandName: brand } : {}, req.hostname).then((view) => {
        if (!view) throw new RefusedAnswer(204);
        return view;
      });
    return {
      key: `login|${req.hostname}|${(brand ?? '').toLowerCase()}`,
      version: () => brandingVersion(deps),
      path: brand ? `/login/${encodeURIComponent(brand)}` : '/login',
      look: () =>
        lookup().catch((error: unknown) => {
          throw error instanceof AppError ? new RefusedAnswer(error.status) : error;
        }),
    };
  };
}

/**
 * A live lesson's join page (issue 32): /join, and /join/{code} from the QR code or link with the code
 * filled in: a signed-out tablet shows the form at once. One render per code (a class opens the same
 * one); a path that is not a code is the app shell.
 */
export function lessonJoin(req: Request): GuestTarget | null {
  const code = typeof req.params.code === 'string' ? req.params.code : undefined;
  if (code === undefined) return { key: '/join', path: '/join' };
  const valid =
    code.length === LESSON_LIMITS.codeLength &&
    [...code.toUpperCase()].every((c) => LESSON_CODE_ALPHABET.includes(c));
  return valid ? { key: `/join/${code}`, path: `/join/${code}` } : null;
}

/** The same page for everyone: revalidated like index.html, chosen by the session cookie's absence. */
function sendPublicHtml(req: Request, res: Response, page: EncodedPage): void {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Vary', 'Cookie, Accept-Encoding');
  sendEncoded(req, res, page);
}
