import { MSG } from '@helix/shared/messages';

export type LoadErrorKind =
  'not-found' | 'forbidden' | 'not-allowed' | 'limit' | 'network' | 'invalid' | 'http' | 'webgl';

/**
 * User-facing texts per failure. 'limit' is the tenant's views past the grace band (the API's 429 'View
 * limit reached'): a pupil or teacher sees whose limit it is and what happens next (the catalogue's
 * wording), never a bare status code.
 */
export const LOAD_ERROR_MESSAGES: Record<LoadErrorKind, { title: string; text: string }> = {
  'not-found': { title: 'Model not found', text: 'This model does not exist or is no longer available.' },
  forbidden: { title: 'Access denied', text: 'You do not have permission to view this model.' },
  /** A link limited to some sites, shown elsewhere (the API's 403 EMBED_HOST_NOT_ALLOWED): nothing counted. */
  'not-allowed': { title: MSG.embedHostNotAllowed, text: MSG.embedHostNotAllowedHint },
  limit: { title: MSG.schoolViewLimitTitle, text: MSG.schoolViewLimitText },
  network: { title: 'The model could not be loaded', text: 'Check your connection and try again.' },
  invalid: {
    title: 'The model could not be loaded',
    text: 'The model file is damaged or not a supported glTF/GLB file.',
  },
  http: {
    title: 'The model could not be loaded',
    text: 'The server could not deliver the model. Please try again later.',
  },
  webgl: {
    title: '3D view not available',
    text: 'This browser or device cannot display 3D graphics (WebGL is off or unsupported).',
  },
};

export class ModelLoadError extends Error {
  /**
   * @param detail technical detail (console, window.__viewer.error); defaults to the kind's title.
   * @param userText a server-provided explanation shown under the title instead of the kind's
   *   default text (e.g. the API's 403 message 'This viewer link is not valid or has expired.').
   */
  constructor(
    readonly kind: LoadErrorKind,
    readonly status = 0,
    detail?: string,
    readonly userText: string | null = null,
  ) {
    super(detail ?? LOAD_ERROR_MESSAGES[kind].title);
    this.name = 'ModelLoadError';
  }
}

export function errorKindForStatus(status: number): LoadErrorKind {
  if (status === 404 || status === 410) return 'not-found';
  if (status === 401 || status === 403) return 'forbidden';
  if (status === 429) return 'limit';
  return 'http';
}

/** Progress: fraction 0..1, or null when the size is unknown. */
export type ProgressFn = (loaded: number, total: number | null) => void;

/** Fetches the model bytes, reporting progress and turning HTTP failures into ModelLoadError. */
export async function fetchModel(
  url: string,
  onProgress: ProgressFn,
  signal?: AbortSignal,
): Promise<ArrayBuffer> {
  let res: Response;
  try {
    // No cookies go to the API's origin either way; 'same-origin' is the mode of the viewer document's
    // preload of the model (crossorigin=anonymous, model-hint.ts), so the preloaded download is used.
    res = await fetch(url, { signal, credentials: 'same-origin' });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new ModelLoadError('network', 0, (e as Error).message);
  }
  if (!res.ok) throw new ModelLoadError(errorKindForStatus(res.status), res.status);
  const header = Number(res.headers.get('content-length'));
  // A gzip-encoded response reports the compressed length; then the total is unknown.
  const total = header > 0 && !res.headers.get('content-encoding') ? header : null;
  if (!res.body) {
    const buf = await res.arrayBuffer();
    onProgress(buf.byteLength, buf.byteLength);
    return buf;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  onProgress(0, total);
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (e) {
      throw new ModelLoadError('network', 0, (e as Error).message);
    }
    if (step.done) break;
    chunks.push(step.value);
    loaded += step.value.byteLength;
    onProgress(loaded, total);
  }
  const out = new Uint8Array(loaded);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  onProgress(loaded, loaded);
  return out.buffer;
}
