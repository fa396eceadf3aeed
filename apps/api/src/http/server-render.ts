import type { Request, RequestHandler } from 'express';
import type { ServerDeps } from '@helix/server/deps';
import { cookie, COOKIE, drawnSessionPage, RefusedAnswer, type DrawnPageOptions } from './drawn-home.ts';

/** How long one of a server render's API answers may take before the app shell answers instead. */
export const SERVER_RENDER_ANSWER_MS = 5_000;

/**
 * `GET /api/t/{tenant}{path}` asked of this very server (its own loopback address and port) with the
 * visitor's session token, so what a server render shows passes the API's own routes: session,
 * tenant and permission checks, presenters and abilities exactly as the browser app's call would.
 * Anything but a 2xx answer rejects (RefusedAnswer).
 */
export function sessionGet(req: Request, token: string, tenant: string): (path: string) => Promise<unknown> {
  const origin = `http://127.0.0.1:${req.socket.localPort}`;
  return async (path) => {
    if (!path.startsWith('/')) throw new Error(`server render: ${path} is not a tenant path`);
    const res = await fetch(`${origin}/api/t/${encodeURIComponent(tenant)}${path}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(SERVER_RENDER_ANSWER_MS),
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new RefusedAnswer(res.status);
    }
    return res.json();
  };
}

/**
 * A page of the web app rendered on the server for the session cookie's visitor by the web bundle's
 * one entry, renderPage(url, context): the web app's route decides what it asks (through
 * `sessionGet`), renders and hands its answers to the browser as the query client's dehydrated state.
 * The frame (session, draw limit, portal host, no parameters, app shell on any doubt) is
 * drawnSessionPage's; a refused or failed answer or render answers the app shell too.
 */
export function serverRenderedPage(
  deps: ServerDeps,
  options: DrawnPageOptions,
  page: string,
): RequestHandler {
  return drawnSessionPage(
    deps,
    options,
    page,
    (renderer) => Boolean(renderer.renderPage),
    async (renderer, index, _actor, frame, req) => {
      const token = cookie(req, COOKIE.apiToken);
      if (!renderer.renderPage || !token) return null;
      return renderer.renderPage(index, req.path, { ...frame, get: sessionGet(req, token, frame.tenant) });
    },
  );
}
