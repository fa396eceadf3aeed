import { isApiErrorBody } from '@helix/shared/api-error';
import { MSG } from '@helix/shared/messages';
import { EMBED_FLAGS, type EmbedFlag } from '@helix/shared/embed';
import { errorKindForStatus, LOAD_ERROR_MESSAGES, ModelLoadError, type LoadErrorKind } from './load-model.ts';
import { keepViewerToken, keptViewerToken } from './kept-viewer-token.ts';
import type { Branding, ModelLookup, ModelSource } from './model-source.ts';
import { isPortalViewer, parseColour, parseUrl, type ViewerParams } from './params.ts';

/**
 * The catalogue lookup through the API (apps/api/MODELS-API.md, "Base calls"):
 *
 *   GET ${apiUrl}/api/viewer/model?model=&subscription=&currentmode=&version=&viewer=&kept=&ancestors=
 *     200 { name, glbUrl, settings, branding, transparentBackground, transparentFallback, record, viewer? }
 *     403 / 404 / 429 { statusCode, error, message }
 *
 * On a share or embed page this is the page load's one API call: `viewer` is the fresh token the page
 * was drawn with, `kept` the token this viewer kept from its last load of the link (kept-viewer-
 * token.ts), and the answer's `viewer` the token the load was counted under, kept for the next load.
 * The API counts ONE view per call, so the lookup makes exactly one request: no retries (a failure
 * in the browser cannot tell "never reached the server" from "answered, but unreadable", e.g. a
 * CORS refusal after the view was counted). The overlay's "Try again" reloads on the user's request.
 */
export interface ApiLookupOptions {
  /** The API origin, or a function resolving it (only called when a lookup is actually made). */
  apiUrl: string | (() => Promise<string>);
  fetch?: typeof fetch;
  /** Give up on an API that does not answer (network error). Default 30 s. */
  timeoutMs?: number;
  /**
   * The frame's ancestor origins, parent first (default: location.ancestorOrigins, where the browser
   * has it): sent in embedding mode, so a link limited to some sites counts only inside them.
   */
  ancestors?: () => readonly string[] | undefined;
  /** Where share and embed loads keep their viewer tokens (default: this origin's localStorage). */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
}

/**
 * ERROR_CODES.embedHostNotAllowed (@helix/shared/schemas/outbox), not imported: the viewer's bundle
 * stays free of zod.
 */
const HOST_NOT_ALLOWED = 'EMBED_HOST_NOT_ALLOWED';

/** location.ancestorOrigins as a list; undefined where the browser does not have it (Firefox). */
function ancestorOrigins(): readonly string[] | undefined {
  const list = (globalThis as { location?: { ancestorOrigins?: DOMStringList } }).location?.ancestorOrigins;
  return list ? Array.from(list) : undefined;
}

/** The request URL: only the parameters the API's strict query schema knows, empty ones left out. */
export function viewerModelUrl(
  apiUrl: string,
  params: ViewerParams,
  ancestors?: readonly string[],
  kept?: string,
): string {
  const q = new URLSearchParams();
  if (params.model) q.set('model', params.model);
  if (params.subscription) q.set('subscription', params.subscription);
  q.set('currentmode', params.currentmode);
  if (params.version) q.set('version', params.version);
  if (params.viewer) q.set('viewer', params.viewer);
  if (kept && params.currentmode === 'embedding') q.set('kept', kept);
  if (ancestors && params.currentmode === 'embedding') q.set('ancestors', ancestors.slice(0, 20).join(' '));
  return `${apiUrl.replace(/\/+$/, '')}/api/viewer/model?${q.toString()}`;
}

const comparable = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * The server's message as the overlay's explanation, unless it only repeats the title ('View limit
 * reached', 'Not found' under 'Model not found'); then the viewer's own text is kinder.
 */
export function userTextFor(kind: LoadErrorKind, message: string | null | undefined): string | null {
  const text = message?.trim();
  if (!text) return null;
  const title = comparable(LOAD_ERROR_MESSAGES[kind].title);
  const said = comparable(text);
  if (!said || title.includes(said)) return null;
  // The API's short 429 wording: the viewer's own limit panel says more.
  if (kind === 'limit' && said === comparable(MSG.viewLimitReached)) return null;
  return text.length > 300 ? `${text.slice(0, 297)}…` : text;
}

async function readJson(res: Response): Promise<unknown> {
  try {
    return (await res.json()) as unknown;
  } catch {
    return null;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

function invalidAnswer(status: number, why: string): ModelLoadError {
  return new ModelLoadError('http', status, `Unexpected answer from the API: ${why}`);
}

/**
 * Maps the API's 200 answer to what the viewer shows. The answer is authoritative: the frame's own
 * `settings`/`bg`/`name` parameters are not used (they could be edited to enable features the tenant
 * switched off). In standard mode (the portal's modal) center_model is always off, as the spec's
 * fixed modal feature set says; a lesson's frame (the portal's viewer too) likewise, so that every
 * screen in the lesson has the model at the same place. Branding images and colour are kept only when their flags are on.
 */
export function sourceFromAnswer(
  body: unknown,
  params: ViewerParams,
  apiUrl: string,
  status = 200,
): ModelSource {
  if (!isRecord(body)) throw invalidAnswer(status, 'not a JSON object');
  const glbUrl = parseUrl(str(body.glbUrl), apiUrl);
  if (!glbUrl || glbUrl.startsWith('data:')) throw invalidAnswer(status, 'no usable glbUrl');
  if (!Array.isArray(body.settings)) throw invalidAnswer(status, 'settings is not a list');
  const wanted = new Set(body.settings.filter((f): f is string => typeof f === 'string'));
  const settings: EmbedFlag[] = EMBED_FLAGS.filter(
    (f) => wanted.has(f) && !(f === 'center_model' && isPortalViewer(params.currentmode)),
  );
  const b = isRecord(body.branding) ? body.branding : {};
  const branding: Branding = {
    backgroundColor: settings.includes('background_color') ? parseColour(str(b.backgroundColor)) : null,
    backgroundImage: settings.includes('background') ? parseUrl(str(b.modelBgLogo), apiUrl) : null,
    loadingImage: parseUrl(str(b.modelLoadingLogo), apiUrl),
    primaryColor: parseColour(str(b.primaryColor)),
  };
  return {
    glbUrl,
    settings,
    branding,
    mode: params.currentmode,
    title: str(body.name),
    description: null,
    version: params.version,
    // Embedding mode only (share/embed pages); the portal's modal keeps its backdrop.
    transparent: body.transparentBackground === true && params.currentmode === 'embedding',
    // Standard mode only: share and embed pages never offer recording.
    record: body.record === true && params.currentmode === 'standard',
  };
}

/** A ModelLookup for resolveModelSource that asks the API (one call, one counted view). */
export function createApiLookup(options: ApiLookupOptions): ModelLookup {
  const timeoutMs = options.timeoutMs ?? 30_000;
  return async (params) => {
    // The API needs both; a link without a subscription (ticket/embed token) is not a model link.
    if (!params.model || !params.subscription) return null;
    const apiUrl = typeof options.apiUrl === 'string' ? options.apiUrl : await options.apiUrl();
    const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
    const embedding = params.currentmode === 'embedding';
    const { storage } = options;
    const kept = embedding ? keptViewerToken(params.subscription, storage) : undefined;
    const ancestors = (options.ancestors ?? ancestorOrigins)();
    let res: Response;
    try {
      res = await doFetch(viewerModelUrl(apiUrl, params, ancestors, kept), {
        method: 'GET',
        mode: 'cors',
        credentials: 'omit',
        cache: 'no-store',
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      throw new ModelLoadError('network', 0, `API lookup failed: ${(e as Error)?.message ?? String(e)}`);
    }
    const body = await readJson(res);
    if (!res.ok) {
      const notAllowed = isApiErrorBody(body) && body.code === HOST_NOT_ALLOWED;
      const kind = notAllowed ? 'not-allowed' : errorKindForStatus(res.status);
      const message = isApiErrorBody(body) && !notAllowed ? body.message : null;
      throw new ModelLoadError(
        kind,
        res.status,
        `API ${res.status}${message ? `: ${message}` : ''}`,
        userTextFor(kind, message),
      );
    }
    const source = sourceFromAnswer(body, params, apiUrl, res.status);
    if (embedding && isRecord(body) && typeof body.viewer === 'string') {
      keepViewerToken(params.subscription, body.viewer, storage);
    }
    return source;
  };
}
