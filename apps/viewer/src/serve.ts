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
import { createReadStream, existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { allowSrcFromEnv, apiUrlFromEnv, injectAllowSrcMeta, injectApiMeta } from './api-config.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_DIST = path.resolve(here, '..', 'dist');

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.glb': 'model/gltf-binary',
  '.gltf': 'model/gltf+json',
  '.bin': 'application/octet-stream',
  '.ktx2': 'image/ktx2',
};

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|wasm)|image\/svg|model\/gltf)/;

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

export interface StaticOptions {
  root: string;
  /** Unknown extension-less paths get index.html (single-page app). */
  spa?: boolean;
  /** Send Access-Control-Allow-Origin: * (model files fetched by the viewer from another origin). */
  cors?: boolean;
  /** Extra headers for HTML documents. */
  htmlHeaders?: Record<string, string>;
  /** Rewrites HTML documents before they are sent (e.g. to put run-time configuration in). */
  transformHtml?: (html: string) => string;
}

const gzipCache = new Map<string, Buffer>();

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

/** Serves files under `prefix` from `root`. Resolves to false when the request is not under the prefix. */
export function staticHandler(prefix: string, options: StaticOptions) {
  const root = path.resolve(options.root);
  return async (req: http.IncomingMessage, res: http.ServerResponse, pathname: string): Promise<boolean> => {
    if (!pathname.startsWith(prefix)) return false;
    const corsHeaders: Record<string, string> = options.cors
      ? { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Content-Length, ETag' }
      : {};
    if (req.method === 'OPTIONS' && options.cors) {
      res.writeHead(204, {
        ...BASE_HEADERS,
        ...corsHeaders,
        'Access-Control-Allow-Methods': 'GET, HEAD',
        'Access-Control-Max-Age': '86400',
      });
      res.end();
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
      return true;
    }
    let rel = pathname.slice(prefix.length);
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    let file = path.resolve(root, '.' + path.posix.normalize('/' + rel));
    if (file !== root && !file.startsWith(root + path.sep)) {
      send(res, 403, 'Forbidden', corsHeaders);
      return true;
    }
    let info = await stat(file).catch(() => null);
    if ((!info || !info.isFile()) && options.spa && !path.extname(rel)) {
      file = path.join(root, 'index.html');
      info = await stat(file).catch(() => null);
    }
    if (!info || !info.isFile()) {
      send(res, 404, 'Not Found', corsHeaders);
      return true;
    }
    const ext = path.extname(file).toLowerCase();
    const type = CONTENT_TYPES[ext] ?? 'application/octet-stream';
    const isHtml = ext === '.html';
    // A rewritten document is held in memory; its ETag follows the bytes actually sent, so a
    // changed configuration (same file) is never answered with a stale 304.
    const rewritten =
      isHtml && options.transformHtml
        ? Buffer.from(options.transformHtml(await readFile(file, 'utf8')), 'utf8')
        : null;
    const etag = rewritten
      ? `W/"${createHash('sha1').update(rewritten).digest('hex').slice(0, 20)}"`
      : `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    const size = rewritten ? rewritten.byteLength : info.size;
    const headers: Record<string, string> = {
      ...BASE_HEADERS,
      ...corsHeaders,
      ...(isHtml ? options.htmlHeaders : {}),
      'Content-Type': type,
      ETag: etag,
      'Last-Modified': info.mtime.toUTCString(),
      // Vite's hashed file names never change content; everything else is revalidated.
      'Cache-Control': pathname.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      Vary: 'Accept-Encoding',
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const acceptsGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (acceptsGzip && COMPRESSIBLE.test(type) && size > 1024 && size < 32 * 1024 * 1024) {
      const key = `${file}:${etag}`;
      let body = gzipCache.get(key);
      if (!body) {
        body = gzipSync(rewritten ?? (await readFile(file)));
        gzipCache.set(key, body);
      }
      res.writeHead(200, {
        ...headers,
        'Content-Encoding': 'gzip',
        'Content-Length': String(body.byteLength),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    }
    res.writeHead(200, { ...headers, 'Content-Length': String(size) });
    if (req.method === 'HEAD') res.end();
    else if (rewritten) res.end(rewritten);
    else
      createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res);
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

export function createViewerServer(options: ViewerServerOptions = {}): http.Server {
  const apiUrl = apiUrlFromEnv(options.apiUrl !== undefined ? { API_URL: options.apiUrl } : process.env);
  const allowSrc = options.allowSrc === true;
  const config = JSON.stringify({ apiUrl, allowSrc });
  const handlers = [
    ...(options.modelsDir ? [staticHandler('/models/', { root: options.modelsDir, cors: true })] : []),
    staticHandler('/', {
      root: options.distDir ?? DEFAULT_DIST,
      spa: true,
      htmlHeaders: { 'Content-Security-Policy': VIEWER_CSP },
      transformHtml: (html) => injectAllowSrcMeta(injectApiMeta(html, apiUrl), allowSrc),
    }),
  ];
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
      if (pathname === '/healthz') {
        send(res, 200, 'ok');
        return;
      }
      if (pathname === '/config.json' && (req.method === 'GET' || req.method === 'HEAD')) {
        res.writeHead(200, {
          ...BASE_HEADERS,
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': String(Buffer.byteLength(config)),
          'Cache-Control': 'no-cache',
        });
        res.end(req.method === 'HEAD' ? undefined : config);
        return;
      }
      for (const handle of handlers) if (await handle(req, res, pathname)) return;
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
