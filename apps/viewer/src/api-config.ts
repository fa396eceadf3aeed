/**
 * Where the Helix API lives. The viewer host is its own origin, so the page must be told the API's
 * origin at run time (no rebuild per environment): src/serve.ts writes it into index.html as
 * `<meta name="helix-api" content="https://api.example">` and also answers GET /config.json
 * `{ "apiUrl": … }`. Likewise whether the development-only `src` parameter is honoured
 * (VIEWER_ALLOW_SRC, default off): `<meta name="helix-allow-src" content="true|false">` and
 * `"allowSrc"` in /config.json. This module is used by both the page and the server (no DOM at
 * import time).
 */

/** Name of the <meta> element carrying the API origin. */
const API_META_NAME = 'helix-api';

/** The API's default origin in development (the API's own PUBLIC_URL default). */
export const DEFAULT_API_URL = 'http://localhost:3000';

/** The origin of an http(s) URL ('https://api.test/x/' -> 'https://api.test'), or null. */
export function normaliseApiUrl(value: string | null | undefined): string | null {
  if (!value?.trim()) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The API origin for the server: API_URL, else PUBLIC_URL (what the stack gives the API), else
 * http://localhost:3000. Unset and empty variables are skipped; an invalid value throws.
 */
export function apiUrlFromEnv(env: Record<string, string | undefined>): string {
  const raw = env.API_URL || env.PUBLIC_URL || DEFAULT_API_URL;
  const url = normaliseApiUrl(raw);
  if (!url) throw new Error(`API_URL/PUBLIC_URL must be an http(s) URL, got "${raw}"`);
  return url;
}

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Puts the API origin into an HTML document: fills the content of an existing
 * `<meta name="helix-api">` (index.html carries an empty one), else inserts one before </head>
 * (or at the top).
 */
export function injectApiMeta(html: string, apiUrl: string): string {
  return injectMeta(html, API_META_NAME, apiUrl);
}

/** Fills (or inserts) `<meta name="${name}" content="${content}">`, as injectApiMeta does. */
function injectMeta(html: string, name: string, content: string): string {
  const tag = `<meta name="${name}" content="${escapeAttr(content)}" />`;
  const existing = new RegExp(`<meta\\s+name=["']${name}["'][^>]*>`, 'i');
  if (existing.test(html)) return html.replace(existing, () => tag);
  const head = html.search(/<\/head>/i);
  if (head >= 0) return html.slice(0, head) + tag + html.slice(head);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? doctype[0] + tag + html.slice(doctype[0].length) : tag + html;
}

/** Name of the <meta> element saying whether `src` (and the other development parameters) is honoured. */
const ALLOW_SRC_META_NAME = 'helix-allow-src';

/**
 * VIEWER_ALLOW_SRC for the server: `true`/`1` allows `src`, unset, empty, `false`/`0` refuse it
 * (the default: production). Anything else throws, so a typo does not silently change behaviour.
 */
export function allowSrcFromEnv(env: Record<string, string | undefined>): boolean {
  const raw = (env.VIEWER_ALLOW_SRC ?? '').trim().toLowerCase();
  if (raw === 'true' || raw === '1') return true;
  if (raw === '' || raw === 'false' || raw === '0') return false;
  throw new Error(`VIEWER_ALLOW_SRC must be true, false, 1 or 0, got "${env.VIEWER_ALLOW_SRC}"`);
}

/** Puts the allow-src switch into an HTML document (`<meta name="helix-allow-src" content="true|false">`). */
export function injectAllowSrcMeta(html: string, allowSrc: boolean): string {
  return injectMeta(html, ALLOW_SRC_META_NAME, String(allowSrc));
}

/**
 * In the page: whether `src` is honoured. The <meta> the server filled in decides (`true`/`false`);
 * when it is missing or empty (a plain static host, `vite preview`) `allowSrc: true` in ./config.json;
 * else not allowed. (The Vite dev server allows it regardless: main.ts checks import.meta.env.DEV.)
 */
export async function readAllowSrc(
  doc: Pick<Document, 'querySelector'> = document,
  fetchFn: typeof fetch = (input, init) => fetch(input, init),
  base: string = typeof location !== 'undefined' ? location.href : 'http://localhost/',
): Promise<boolean> {
  const meta = doc.querySelector<HTMLMetaElement>(`meta[name="${ALLOW_SRC_META_NAME}"]`);
  const fromMeta = meta?.content.trim().toLowerCase();
  if (fromMeta === 'true') return true;
  if (fromMeta === 'false') return false;
  try {
    const res = await fetchFn(new URL('config.json', base).href, { cache: 'no-store', credentials: 'omit' });
    if (res.ok) return ((await res.json()) as { allowSrc?: unknown }).allowSrc === true;
  } catch {
    /* no config.json: not allowed */
  }
  return false;
}

/**
 * In the page: the API origin from the <meta> the server filled in; when it is missing or empty
 * (e.g. a plain static host) from ./config.json; else the development default.
 */
export async function readApiUrl(
  doc: Pick<Document, 'querySelector'> = document,
  fetchFn: typeof fetch = (input, init) => fetch(input, init),
  base: string = typeof location !== 'undefined' ? location.href : 'http://localhost/',
): Promise<string> {
  const meta = doc.querySelector<HTMLMetaElement>(`meta[name="${API_META_NAME}"]`);
  const fromMeta = normaliseApiUrl(meta?.content);
  if (fromMeta) return fromMeta;
  try {
    const res = await fetchFn(new URL('config.json', base).href, { cache: 'no-store', credentials: 'omit' });
    if (res.ok) {
      const body = (await res.json()) as { apiUrl?: unknown };
      const fromConfig = normaliseApiUrl(typeof body.apiUrl === 'string' ? body.apiUrl : null);
      if (fromConfig) return fromConfig;
    }
  } catch {
    /* no config.json: fall through */
  }
  return DEFAULT_API_URL;
}
