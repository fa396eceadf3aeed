import type { Request, RequestHandler, Response } from 'express';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { GuestRenderContext } from '@helix/shared/server-render';
import type { ServerDeps } from '@helix/server/deps';
import {
  loadServerBundle,
  cookie,
  COOKIE,
  serverRenderFailed,
  indexReader,
  RefusedAnswer,
  type ServerRenderOptions,
} from './server-render-support.ts';
import { SERVER_RENDER_ANSWER_MS } from './server-render.ts';

/** How long a guest page's render is served before it is rendered again: the catalogue changes rarely. */
export const GUEST_PAGE_TTL_MS = 30_000;

/**
 * `GET /api{path}` of a public route asked of this very server (`origin`: its own loopback address
 * and port), without any session: what a guest page shows is what the API's public route answers
 * anyone. Only `/guest/` paths; anything but a 2xx answer rejects (RefusedAnswer).
 */
export function guestGet(origin: string): (path: string) => Promise<unknown> {
  return async (path) => {
    if (!path.startsWith('/guest/')) throw new Error(`server render: ${path} is not a guest path`);
    const res = await fetch(`${origin}/api${path}`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(SERVER_RENDER_ANSWER_MS),
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new RefusedAnswer(res.status);
    }
    return res.json();
  };
}

/** This server's own loopback origin, from a request it is answering. */
const originOf = (req: Request): string => `http://127.0.0.1:${req.socket.localPort}`;

export interface GuestRenderedPage {
  /** The page: mount it on its path. */
  page: RequestHandler;
  /**
   * Renders the page at the server's first request of any kind (the start-up's health check), so no
   * visitor waits for the first render: mount it before every other route.
   */
  warm: RequestHandler;
}

/**
 * A page of the web app rendered on the server for signed-out visitors (/choose-subscription: the
 * sign-up's plan step) by the web bundle's renderPage with a guest context (no user; `get` asks the
 * API's public routes): one render serves every visitor on the portal's own host without a session
 * cookie and without parameters. Once it is older than GUEST_PAGE_TTL_MS the next visitor still gets
 * it while it is rendered again behind them, so no visitor waits for a render but the very first
 * (`warm`). Signed in (a new sign-up continuing), a custom domain, parameters, no bundle, a refusal or
 * a failure: the app shell (`next()`).
 */
export function guestRenderedPage(
  deps: ServerDeps,
  options: ServerRenderOptions & { googleSignIn?: boolean; now?: () => number },
  path: string,
): GuestRenderedPage {
  const loadRenderer = options.renderer ?? loadServerBundle(options.webDist);
  const readIndex = indexReader(options.webDist);
  const now = options.now ?? Date.now;
  let cached: { at: number; page: CompressedPage } | null = null;
  let rendering: Promise<CompressedPage | null> | null = null;

  const render = async (origin: string): Promise<CompressedPage | null> => {
    const renderer = await loadRenderer();
    const index = readIndex();
    if (!renderer || index === null) return null;
    const ctx: GuestRenderContext = {
      user: null,
      google: options.googleSignIn !== false,
      get: guestGet(origin),
    };
    const html = await renderer.renderPage(index, path, ctx);
    return html === null ? null : compressed(html);
  };
  /** One render at a time: visitors arriving meanwhile wait for the same one. */
  const rerender = (origin: string): Promise<CompressedPage | null> =>
    (rendering ??= render(origin)
      .then((page) => {
        if (page) cached = { at: now(), page };
        return page;
      })
      .finally(() => {
        rendering = null;
      }));
  const behind = (origin: string) =>
    void rerender(origin).catch((error: unknown) => serverRenderFailed(deps, error, path));

  let warmed = false;
  const warm: RequestHandler = (req, _res, next) => {
    if (!warmed) {
      warmed = true;
      behind(originOf(req));
    }
    next();
  };

  const page: RequestHandler = async (req, res, next) => {
    if (req.hostname !== options.portalHost || req.url.includes('?')) return next();
    if (cookie(req, COOKIE.apiToken)) return next();
    try {
      if (cached) {
        if (now() - cached.at > GUEST_PAGE_TTL_MS) behind(originOf(req));
        return sendPublicHtml(req, res, cached.page);
      }
      const rendered = await rerender(originOf(req));
      if (!rendered) return next();
      sendPublicHtml(req, res, rendered);
    } catch (error) {
      serverRenderFailed(deps, error, path);
      next();
    }
  };
  return { page, warm };
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
