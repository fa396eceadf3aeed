import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { SERVER_BUNDLE_DIR, SERVER_BUNDLE_FILE, type ServerBundle } from '@helix/shared/server-render';
import type { ServerDeps } from '@helix/server/deps';
import { isRedisUnavailable, redisKey, redisOutageOf } from '@helix/server/redis';
import { sha256 } from '@helix/server/tokens';
import { readCookie } from './oauth-cookie.ts';

/** The web app's cookies (apps/web/src/session/storage-keys.ts). */
export const COOKIE = { apiToken: 'apiToken', authType: 'auth-type' } as const;

/** The web app's server bundle: the typed contract (@helix/shared/server-render). */
export type { ServerBundle } from '@helix/shared/server-render';

/** The server bundle next to the built web app, loaded once; null when the build has none. */
export function loadServerBundle(webDist: string): () => Promise<ServerBundle | null> {
  const file = path.resolve(webDist, '..', SERVER_BUNDLE_DIR, SERVER_BUNDLE_FILE);
  let loaded: Promise<ServerBundle | null> | undefined;
  return () =>
    (loaded ??= existsSync(file)
      ? (import(pathToFileURL(file).href) as Promise<ServerBundle>)
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

/** Server-rendered pages per session and minute; beyond it the static shell answers (reloads cannot load the server). */
export const SERVER_RENDERS_PER_MINUTE = 30;

/**
 * Counts a draw for the session; false once it is over the limit, or at once while Redis is known to be
 * down (a Redis failure: the shell, below).
 */
export async function withinLimit(deps: ServerDeps, token: string): Promise<boolean> {
  if (redisOutageOf(deps.redis)?.down) return false;
  const key = redisKey(deps.config.REDIS_PREFIX, 'server-render', sha256(token));
  const count = await deps.redis.incr(key);
  if (count === 1) await deps.redis.expire(key, 60);
  return count <= SERVER_RENDERS_PER_MINUTE;
}

/** JSON's own round trip: the page is rendered with exactly what the browser app would receive. */
export const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export function sendHtml(req: Request, res: Response, html: string): void {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  // Personal: never stored by the browser's cache or a proxy, and never served for another cookie.
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Vary', 'Cookie, Accept-Encoding');
  sendEncoded(req, res, { html });
}

/** A page and, when it was compressed ahead (a page served to many), its brotli and gzip bytes. */
export interface EncodedPage {
  html: string;
  br?: Buffer;
  gzip?: Buffer;
}

/** A page served to many, compressed once at the highest settings (brotli 11, gzip 9). */
export const compressedOnce = (html: string): Required<EncodedPage> => ({
  html,
  br: brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  gzip: gzipSync(html, { level: 9 }),
});

/**
 * Ends the answer with the page in the best encoding the browser accepts (brotli, gzip, or none): the
 * bytes compressed ahead when the page has them, else compressed now (brotli 5, gzip 6).
 */
export function sendEncoded(req: Request, res: Response, page: EncodedPage): void {
  const accepts = req.acceptsEncodings('br', 'gzip');
  if (accepts === 'br') {
    res.setHeader('Content-Encoding', 'br');
    res.end(page.br ?? brotliCompressSync(page.html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
  } else if (accepts === 'gzip') {
    res.setHeader('Content-Encoding', 'gzip');
    res.end(page.gzip ?? gzipSync(page.html, { level: 6 }));
  } else {
    res.end(page.html);
  }
}

/** How long one of a server render's API answers may take before the app shell answers instead. */
const SERVER_RENDER_ANSWER_MS = 5_000;

/** This server's own loopback origin, from a request it is answering. */
export const originOf = (req: Request): string => `http://127.0.0.1:${req.socket.localPort}`;

/**
 * `GET {origin}{path}` with these headers, asked of this very server (`origin`: originOf) for a server
 * render, answered as JSON within SERVER_RENDER_ANSWER_MS; anything but a 2xx answer rejects
 * (RefusedAnswer).
 */
export function loopbackGet(
  origin: string,
  headers: Record<string, string> = {},
): (path: string) => Promise<unknown> {
  return async (path) => {
    const res = await fetch(`${origin}${path}`, {
      headers: { ...headers, accept: 'application/json' },
      signal: AbortSignal.timeout(SERVER_RENDER_ANSWER_MS),
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new RefusedAnswer(res.status);
    }
    return res.json();
  };
}

export interface ServerRenderOptions {
  webDist: string;
  portalHost?: string;
  renderer?: () => Promise<ServerBundle | null>;
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

export function serverRenderFailed(deps: ServerDeps, error: unknown, page: string): void {
  // A Redis outage is logged once by its outage state, not per page.
  if (isRedisUnavailable(error)) redisOutageOf(deps.redis)?.failed(error);
  // A refusal is the API's own answer to this session (no permission...), not a failure.
  else if (error instanceof RefusedAnswer) deps.logger.debug({ status: error.status }, `${page}: app shell`);
  else deps.logger.warn({ err: error }, `server render of the ${page} failed; serving the app shell`);
}
