import type { EmbedFlag, ViewerMode } from '@helix/shared/embed';
import { parseColour, parseSettings, parseUrl, withoutDevParams, type ViewerParams } from './params.ts';
import { ModelLoadError } from './load-model.ts';

/** Tenant branding that the viewer honours (subject to the background flags). */
export interface Branding {
  backgroundColor: string | null;
  backgroundImage: string | null;
  loadingImage: string | null;
  primaryColor: string | null;
}

/** Everything the viewer needs to show one model. */
export interface ModelSource {
  glbUrl: string;
  settings: EmbedFlag[];
  branding: Branding;
  mode: ViewerMode;
  /** Display name/description; when null the viewer uses what the .glb carries. */
  title: string | null;
  description: string | null;
  version: string | null;
  /**
   * No backdrop: the host page shows around the model. Only the API's answer turns it on (a
   * transparent embed link whose plan includes it now), never a query parameter.
   */
  transparent: boolean;
  /** The Record control is offered: only the API's answer for this load says so (portal modal only). */
  record: boolean;
}

/**
 * Resolves a catalogue `model` (with subscription and version) to a source, e.g. through the API.
 * Return null when the model is unknown (the viewer shows 'Model not found'); throw a
 * ModelLoadError with the HTTP status for 403 (forbidden) or 429 (view limit reached).
 */
export type ModelLookup = (params: ViewerParams) => Promise<ModelSource | null>;

function brandingFromParams(params: ViewerParams, base: string): Branding {
  // `bg` is either a colour or an image URL; `bgcolor` / `bgimage` name one explicitly.
  const bgAsColour = parseColour(params.bg);
  return {
    backgroundColor: parseColour(params.bgcolor) ?? bgAsColour,
    backgroundImage: parseUrl(params.bgimage, base) ?? (bgAsColour ? null : parseUrl(params.bg, base)),
    loadingImage: parseUrl(params.loading, base),
    primaryColor: parseColour(params.primary),
  };
}

/**
 * Turns the frame's query parameters into a model source. With `allowSrc` (tests and development
 * only) a direct `src` URL (with `settings`, `bg`, `loading`, `name`, …) wins; without it those
 * parameters are ignored (DEV_ONLY_PARAMS), so a `src` without a catalogue `model` is 'Model not
 * found' and the file is never fetched. Otherwise the catalogue `model` is resolved through the
 * `lookup` (the page passes the API lookup of api-lookup.ts), which is called at most once.
 */
export async function resolveModelSource(
  raw: ViewerParams,
  options: { base?: string; lookup?: ModelLookup; allowSrc?: boolean } = {},
): Promise<ModelSource> {
  const base = options.base ?? (typeof location !== 'undefined' ? location.href : 'http://localhost/');
  const params = options.allowSrc === true ? raw : withoutDevParams(raw);
  if (params.src) {
    const glbUrl = parseUrl(params.src, base);
    if (!glbUrl) throw new ModelLoadError('invalid', 0, 'The model address is not a valid URL.');
    return {
      glbUrl,
      settings: parseSettings(params.settings, params.currentmode),
      branding: brandingFromParams(params, base),
      mode: params.currentmode,
      title: params.name,
      description: params.description,
      version: params.version,
      transparent: false,
      record: false,
    };
  }
  if (params.model && options.lookup) {
    const found = await options.lookup(params);
    if (found) return found;
  }
  throw new ModelLoadError('not-found', 404);
}
