import { EMBED_FLAGS, TRANSPARENT_BACKGROUND, type EmbedFlag } from '@helix/shared';

/** The Share/Embed checklist starts with all 15 features on (spec 9). */
export const DEFAULT_EMBED_SETTINGS: readonly EmbedFlag[] = EMBED_FLAGS;

/** Pairs of which only one may be on: the background image or the background colour. */
const EXCLUSIVE: Partial<Record<EmbedFlag, EmbedFlag>> = {
  background: 'background_color',
  background_color: 'background',
};

const inCanonicalOrder = (flags: Iterable<EmbedFlag>): EmbedFlag[] => {
  const set = new Set(flags);
  return EMBED_FLAGS.filter((f) => set.has(f));
};

/**
 * One box ticked or unticked. Ticking background or background_color unticks the other: the most
 * recently picked of the two wins (spec 4). The result keeps the canonical flag order.
 */
export function toggleFlag(selected: readonly EmbedFlag[], flag: EmbedFlag, checked: boolean): EmbedFlag[] {
  const next = new Set(selected);
  if (!checked) {
    next.delete(flag);
    return inCanonicalOrder(next);
  }
  next.add(flag);
  const rival = EXCLUSIVE[flag];
  if (rival) next.delete(rival);
  return inCanonicalOrder(next);
}

/**
 * A checkbox group reports the whole new list; the newly ticked flags are applied one by one, so the
 * exclusivity rule holds however the change arrived. Unknown names are dropped.
 */
export function applyChecklistChange(previous: readonly EmbedFlag[], next: readonly string[]): EmbedFlag[] {
  const known = next.filter((f): f is EmbedFlag => (EMBED_FLAGS as readonly string[]).includes(f));
  const before = new Set(previous);
  let result = inCanonicalOrder(known.filter((f) => before.has(f)));
  for (const flag of known) if (!before.has(flag)) result = toggleFlag(result, flag, true);
  return result;
}

/** The portal's viewer modal has a fixed feature set: everything but center_model (spec 9). */
export const MODAL_VIEWER_FLAGS: readonly EmbedFlag[] = EMBED_FLAGS.filter((f) => f !== 'center_model');

/**
 * The viewer URL for the modal with its fixed features. The API's /model/viewer-url may already carry a
 * `settings` parameter (then it is left alone); otherwise the fixed set is appended.
 */
export function withModalSettings(url: string, base = 'http://localhost/'): string {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    return url;
  }
  if (parsed.searchParams.has('settings')) return url;
  const hashAt = url.indexOf('#');
  const head = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const separator = !head.includes('?') ? '?' : /[?&]$/.test(head) ? '' : '&';
  return `${head}${separator}settings=${MODAL_VIEWER_FLAGS.join(',')}${hash}`;
}

/** What a link is made with: the features, and whether it has no backdrop at all. */
export interface LinkOptions {
  settings: EmbedFlag[];
  transparentBackground: boolean;
}

const isBackdrop = (f: string) => f === 'background' || f === 'background_color';

/**
 * The checklist with the transparent option (TRANSPARENT_BACKGROUND among the values): background,
 * background_color and transparent are exclusive, the most recently picked of the three wins.
 */
export function applyLinkOptionsChange(previous: LinkOptions, next: readonly string[]): LinkOptions {
  const wantsTransparent = next.includes(TRANSPARENT_BACKGROUND);
  let settings = applyChecklistChange(previous.settings, next);
  if (wantsTransparent && !previous.transparentBackground) {
    return { settings: settings.filter((f) => !isBackdrop(f)), transparentBackground: true };
  }
  const newBackdrop = settings.some((f) => isBackdrop(f) && !previous.settings.includes(f));
  if (newBackdrop) return { settings, transparentBackground: false };
  settings = wantsTransparent ? settings.filter((f) => !isBackdrop(f)) : settings;
  return { settings, transparentBackground: wantsTransparent };
}
