import type { Request, RequestHandler, Response } from 'express';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { ServerDeps } from '@helix/server/deps';
import { listGuestPlans } from '@helix/server/plans/list-plans.query';
import {
  asJson,
  bundledHomeRenderer,
  cookie,
  COOKIE,
  drawnPageFailed,
  indexReader,
  type DrawnPageOptions,
} from './drawn-home.ts';

export type { ServerBundle as PagesRenderer } from './drawn-home.ts';

/*
 * The further first screens the API draws with the web app's server bundle (issue 18 §14), as it draws
 * the home (drawn-home.ts): the same bundle, hand-over contract (@helix/shared/server-render), per-session
 * page handler (drawnSessionPage: draw limit and fallbacks). Any doubt answers with the app shell
 * (`next()`).
 */

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
    const renderer = await loadRenderer();
    const index = readIndex();
    if (!renderer || index === null) return null;
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

  if (options.warm)
    void redraw().catch((error: unknown) => drawnPageFailed(deps, error, '/choose-subscription'));

  return async (req, res, next) => {
    if (req.hostname !== options.portalHost || req.url.includes('?')) return next();
    if (cookie(req, COOKIE.apiToken)) return next();
    try {
      if (cached) {
        if (now() - cached.at > CHOOSE_SUBSCRIPTION_TTL_MS) {
          void redraw().catch((error: unknown) => drawnPageFailed(deps, error, '/choose-subscription'));
        }
        return sendPublicHtml(req, res, cached.page);
      }
      const page = await redraw();
      if (!page) return next();
      sendPublicHtml(req, res, page);
    } catch (error) {
      drawnPageFailed(deps, error, '/choose-subscription');
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
