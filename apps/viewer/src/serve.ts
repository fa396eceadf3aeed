/**
 * Production server of the model host: serves the built viewer (dist/) on VIEWER_PORT (default 3001).
 *
 *   npm run build -w @helix/viewer && npm start -w @helix/viewer
 *
 * The viewer is made to be framed by the portal and by public embed pages on other origins, so it
 * sends `Content-Security-Policy: frame-ancestors *` and never X-Frame-Options. Optionally
 * VIEWER_MODELS_DIR is served under /models/ with CORS (demo content, development).
 *
 * The page resolves catalogue models through the API, whose origin comes from API_URL (else
 * PUBLIC_URL, else http://localhost:3000) at run time: it is written into index.html as
 * `<meta name="helix-api" content="…">` and answered at GET /config.json `{ apiUrl }`.
 *
 * The development-only `src` parameter (a direct file URL, with free-form settings/branding/title)
 * is refused unless VIEWER_ALLOW_SRC=true (option `allowSrc`); the switch reaches the page the same
 * way: `<meta name="helix-allow-src" content="true|false">` and `allowSrc` in /config.json.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sirv from 'sirv';
import { allowSrcFromEnv, apiUrlFromEnv, injectAllowSrcMeta, injectApiMeta } from './api-config.ts';
import { modelPreloadLink } from './model-hint.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_DIST = path.resolve(here, '..', 'dist');

/**
 * The page loads models, textures and branding images from other origins (API, storage, CDN), so
 * connect-src and img-src are open; scripts only from this origin (plus blob workers for Draco).
 */
export const VIEWER_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval' blob:",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  'img-src * data: blob:',
  // The recording's preview plays from a blob: URL.
  "media-src 'self' blob:",
  'connect-src * data: blob:',
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
  'frame-ancestors *',
].join('; ');

const BASE_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  // Assets may be used from the embedding pages' origins.
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Content-Length, ETag',
};

function send(
  res: http.ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...BASE_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body);
}

/** sirv answers a request it has a file for; otherwise it calls `next` (here: resolves false). */
const served = (handler: ReturnType<typeof sirv>, req: http.IncomingMessage, res: http.ServerResponse) =>
  new Promise<boolean>((resolve) => {
    handler(req, res, () => resolve(false));
    if (res.headersSent || res.writableEnded) resolve(true);
    else res.once('finish', () => resolve(true)).once('close', () => resolve(true));
  });

/**
 * index.html with the run-time configuration written in, for `/` and every app path (single-page
 * app). Rewritten documents are held per file version; the ETag follows the bytes actually sent, so a
 * changed configuration (same file) is never answered with a stale 304.
 */
function htmlHandler(
  file: string,
  transform: (html: string) => string,
  extraHeaders: (req: http.IncomingMessage) => Record<string, string> = () => ({}),
) {
  let cached: { version: string; body: Buffer; etag: string; mtime: Date } | null = null;
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return false;
    const version = `${info.size}-${info.mtimeMs}`;
    if (cached?.version !== version) {
      const body = Buffer.from(transform(await readFile(file, 'utf8')), 'utf8');
      const etag = `W/"${createHash('sha1').update(body).digest('hex').slice(0, 20)}"`;
      cached = { version, body, etag, mtime: info.mtime };
    }
    const headers = {
      ...BASE_HEADERS,
      'Content-Security-Policy': VIEWER_CSP,
      'Content-Type': 'text/html; charset=utf-8',
      ETag: cached.etag,
      'Last-Modified': cached.mtime.toUTCString(),
      'Cache-Control': 'no-cache',
      ...extraHeaders(req),
    };
    if (req.headers['if-none-match'] === cached.etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    res.writeHead(200, { ...headers, 'Content-Length': String(cached.body.byteLength) });
    res.end(req.method === 'HEAD' ? undefined : cached.body);
    return true;
  };
}

export interface ViewerServerOptions {
  distDir?: string;
  /** Served under /models/ with CORS when given. */
  modelsDir?: string | null;
  /** The API's origin for the page; default from API_URL / PUBLIC_URL / http://localhost:3000. */
  apiUrl?: string;
  /**
   * Honour the page's `src` parameter (and the free-form settings/branding/title that go with it):
   * tests and development only. Default false: only catalogue models, resolved through the API.
   * The CLI sets it from VIEWER_ALLOW_SRC.
   */
  allowSrc?: boolean;
}

/**
 * The model host's HTTP server: the built viewer through sirv (files listed once at start; Vite's
 * hashed assets immutable, everything else revalidated by ETag; the .br/.gz files the build writes
 * beside them when the browser accepts them), index.html with the run-time configuration for every
 * app path, /config.json, /healthz, and optionally a models folder (with CORS, read per request).
 */
export function createViewerServer(options: ViewerServerOptions = {}): http.Server {
  const apiUrl = apiUrlFromEnv(options.apiUrl !== undefined ? { API_URL: options.apiUrl } : process.env);
  const allowSrc = options.allowSrc === true;
  const config = JSON.stringify({ apiUrl, allowSrc });
  const distDir = path.resolve(options.distDir ?? DEFAULT_DIST);
  const html = htmlHandler(
    path.join(distDir, 'index.html'),
    (page) => injectAllowSrcMeta(injectApiMeta(page, apiUrl), allowSrc),
    (req): Record<string, string> => {
      // A share or embed page's model starts downloading with this document (model-hint.ts).
      const link = modelPreloadLink(new URL(req.url ?? '/', 'http://localhost').search, apiUrl);
      return link ? { Link: link } : {};
    },
  );
  const assets = sirv(distDir, {
    etag: true,
    gzip: true,
    brotli: true,
    extensions: [],
    setHeaders: (res, pathname) => {
      for (const [name, value] of Object.entries(BASE_HEADERS)) res.setHeader(name, value);
      res.setHeader(
        'Cache-Control',
        // Vite's hashed file names never change content; everything else is revalidated.
        pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  const models = options.modelsDir
    ? sirv(options.modelsDir, {
        dev: true, // a folder that may change while the server runs
        etag: true,
        extensions: [],
        setHeaders: (res) => {
          for (const [name, value] of Object.entries({ ...BASE_HEADERS, ...CORS_HEADERS })) {
            res.setHeader(name, value);
          }
        },
      })
    : null;

  return http.createServer((req, res) => {
    void (async () => {
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
        if (pathname.includes('\0')) throw new Error('NUL in path');
      } catch {
        send(res, 400, 'Bad Request');
        return;
      }
      const isModels = models !== null && pathname.startsWith('/models/');
      if (req.method === 'OPTIONS' && isModels) {
        res.writeHead(204, {
          ...BASE_HEADERS,
          ...CORS_HEADERS,
          'Access-Control-Allow-Methods': 'GET, HEAD',
          'Access-Control-Max-Age': '86400',
        });
        res.end();
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        send(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
        return;
      }
      if (pathname === '/healthz') {
        send(res, 200, 'ok');
        return;
      }
      if (pathname === '/config.json') {
        res.writeHead(200, {
          ...BASE_HEADERS,
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': String(Buffer.byteLength(config)),
          'Cache-Control': 'no-cache',
        });
        res.end(req.method === 'HEAD' ? undefined : config);
        return;
      }
      if (isModels) {
        const rest = { url: req.url!.replace(/^\/models/, '') };
        if (await served(models, Object.assign(Object.create(req) as http.IncomingMessage, rest), res))
          return;
        send(res, 404, 'Not Found', CORS_HEADERS);
        return;
      }
      if (pathname === '/' || pathname === '/index.html') {
        if (await html(req, res)) return;
      } else if (await served(assets, req, res)) {
        return;
      } else if (!path.extname(pathname) && (await html(req, res))) {
        return; // an app path: the single-page app
      }
      send(res, 404, 'Not Found');
    })().catch((e: unknown) => {
      console.error('[viewer] request failed', e);
      if (!res.headersSent) send(res, 500, 'Internal Server Error');
      else res.destroy();
    });
  });
}

const invokedDirectly =
  process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  const distDir = process.env.VIEWER_DIST ? path.resolve(process.env.VIEWER_DIST) : DEFAULT_DIST;
  if (!existsSync(path.join(distDir, 'index.html'))) {
    console.error(`[viewer] ${distDir}/index.html is missing: run "npm run build -w @helix/viewer" first.`);
    process.exit(1);
  }
  const port = Number(process.env.VIEWER_PORT ?? 3001);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`[viewer] VIEWER_PORT must be a port number, got "${process.env.VIEWER_PORT}"`);
    process.exit(1);
  }
  const modelsDir = process.env.VIEWER_MODELS_DIR ? path.resolve(process.env.VIEWER_MODELS_DIR) : null;
  let apiUrl: string;
  let allowSrc: boolean;
  try {
    apiUrl = apiUrlFromEnv(process.env);
    allowSrc = allowSrcFromEnv(process.env);
  } catch (e) {
    console.error(`[viewer] ${(e as Error).message}`);
    process.exit(1);
  }
  const server = createViewerServer({ distDir, modelsDir, apiUrl, allowSrc });
  server.listen(port, process.env.VIEWER_HOST || undefined, () => {
    console.log(
      `[viewer] serving ${distDir} on http://localhost:${port} (API: ${apiUrl})${allowSrc ? ' (src allowed: development only)' : ''}${modelsDir ? ` (models: ${modelsDir} at /models/)` : ''}`,
    );
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
