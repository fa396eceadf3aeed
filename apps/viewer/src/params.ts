import { EMBED_FLAGS, VIEWER_MODES, type EmbedFlag, type ViewerMode } from '@helix/shared/embed';

/** The query parameters of the viewer frame (see README.md). */
export interface ViewerParams {
  /** Catalogue model (urlModelName), resolved through the API (GET /api/viewer/model). */
  model: string | null;
  /** The credential for the API lookup: a viewer ticket (standard) or an embed token (embedding). */
  subscription: string | null;
  /**
   * 'standard' = the portal's viewer modal, 'embedding' = public share/embed pages, 'lesson' = a live
   * lesson's frame (the portal's viewer, driven by the lesson page: lesson/lesson-bridge.ts).
   */
  currentmode: ViewerMode;
  /** Model version (shown in the info panel; passed to the API lookup). */
  version: string | null;
  /** The share/embed page's viewer token (minted by the API), passed to the API lookup (a view counts once per viewer). */
  viewer: string | null;
  /** The share/embed page's hint of the model file's signed address (model-hint.ts), downloaded early. */
  glb: string | null;
  /** Direct URL of the .glb to load (tests, development); when given the API is not asked. */
  src: string | null;
  /** Raw `settings` value: comma-separated enabled embed flags; null when absent. */
  settings: string | null;
  /** Branding: background colour or image URL (auto-detected), or the explicit variants. */
  bg: string | null;
  bgcolor: string | null;
  bgimage: string | null;
  /** Branding: loading image URL. */
  loading: string | null;
  /** Branding: primary (accent) colour for controls and drawings. */
  primary: string | null;
  /** Optional display name and description overriding what the .glb carries. */
  name: string | null;
  description: string | null;
}

export function parseViewerParams(search: string | URLSearchParams): ViewerParams {
  const q = typeof search === 'string' ? new URLSearchParams(search) : search;
  const get = (k: string) => {
    const v = q.get(k);
    return v === null ? null : v.trim();
  };
  const mode = get('currentmode');
  return {
    model: get('model') || null,
    subscription: get('subscription') || null,
    currentmode: (VIEWER_MODES as readonly string[]).includes(mode ?? '')
      ? (mode as ViewerMode)
      : 'embedding',
    version: get('version') || null,
    viewer: get('viewer') || null,
    glb: get('glb') || null,
    src: get('src') || null,
    settings: get('settings'),
    bg: get('bg') || null,
    bgcolor: get('bgcolor') || null,
    bgimage: get('bgimage') || null,
    loading: get('loading') || null,
    primary: get('primary') || null,
    name: get('name') || null,
    description: get('description') || null,
  };
}

/**
 * Parameters that exist only for tests and development: a direct `src` file and the free-form
 * settings/branding/title that go with it. A production viewer must not honour them (anyone could
 * show any file, with any title, background or logo, on the Helix origin, bypassing the catalogue,
 * view counting and plans), so they are dropped unless the server allows them (VIEWER_ALLOW_SRC) or
 * the page runs under the Vite dev server.
 */
export const DEV_ONLY_PARAMS = [
  'src',
  'settings',
  'bg',
  'bgcolor',
  'bgimage',
  'loading',
  'primary',
  'name',
  'description',
] as const satisfies readonly (keyof ViewerParams)[];

/** The parameters with every development-only one removed (as if absent). */
export function withoutDevParams(params: ViewerParams): ViewerParams {
  const out = { ...params };
  for (const key of DEV_ONLY_PARAMS) out[key] = null;
  return out;
}

/** The fixed feature set of the portal's viewer modal (spec: 'fixed, with centerModel false'), also a lesson's. */
export const STANDARD_MODE_FLAGS: readonly EmbedFlag[] = EMBED_FLAGS.filter((f) => f !== 'center_model');

/** The portal's own viewer (its modal, a live lesson's frame), as opposed to share and embed pages. */
export const isPortalViewer = (mode: ViewerMode): boolean => mode === 'standard' || mode === 'lesson';

/** 'centerModel' / 'labels-ui' / 'LABELS_UI' -> 'center_model' / 'labels_ui'. */
function normaliseFlag(raw: string): string {
  return raw
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
}

/**
 * Enabled flags from a `settings` value. Absent (null) means the mode's default: all 15 flags when
 * embedding, the fixed modal set in standard mode. An empty string means none. Unknown names are
 * ignored; the result keeps the canonical EMBED_FLAGS order.
 */
export function parseSettings(raw: string | null, mode: ViewerMode = 'embedding'): EmbedFlag[] {
  if (raw === null) return isPortalViewer(mode) ? [...STANDARD_MODE_FLAGS] : [...EMBED_FLAGS];
  let items: string[];
  const trimmed = raw.trim();
  if (trimmed.startsWith('[')) {
    // Also accept a JSON array (the API stores settings as a list).
    try {
      const parsed: unknown = JSON.parse(trimmed);
      items = Array.isArray(parsed) ? parsed.map(String) : [];
    } catch {
      items = [];
    }
  } else {
    items = trimmed.split(',');
  }
  const wanted = new Set(items.map(normaliseFlag));
  return EMBED_FLAGS.filter((f) => wanted.has(f));
}

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNCTIONAL = /^(rgb|rgba|hsl|hsla|hwb|lab|lch|oklab|oklch)\([\d\s.,%/+\-a-z]*\)$/i;
const NAMED = /^[a-z]{3,30}$/i;

/** A CSS colour from user input, or null when it does not look like one. */
export function parseColour(value: string | null): string | null {
  if (!value) return null;
  const v = value.trim();
  const hex = HEX.exec(v);
  if (hex) return `#${hex[1]!.toLowerCase()}`;
  if (FUNCTIONAL.test(v) || NAMED.test(v)) return v.toLowerCase();
  return null;
}

/** An image/model URL we are willing to load: http(s), protocol-relative, relative paths, data:image. */
export function parseUrl(value: string | null, base: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, base);
    if (url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'blob:') return url.href;
    if (url.protocol === 'data:' && /^data:image\//i.test(value)) return value;
  } catch {
    /* not a URL */
  }
  return null;
}
