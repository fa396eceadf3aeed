import { MSG } from './messages.ts';

/**
 * The viewer features an embed or share link can switch on or off (all on by default): the
 * specification's 15, then `ar` ("View in AR" on tablets and phones that can; docs/ar.md).
 */
export const EMBED_FLAGS = [
  'info',
  'draw',
  'play',
  'labels',
  'labels_ui',
  'layers',
  'full_screen',
  'zoom_controls',
  'table_of_content',
  'background',
  'background_color',
  'center_model',
  'hide_modal',
  'desktop_view',
  'animate',
  'ar',
] as const;

export type EmbedFlag = (typeof EMBED_FLAGS)[number];

/** standard: the portal's modal; embedding: share and embed links; lesson: a live lesson's frame (lessons.ts). */
export const VIEWER_MODES = ['standard', 'embedding', 'lesson'] as const;
export type ViewerMode = (typeof VIEWER_MODES)[number];

/**
 * Not one of the 15 flags: a link option of its own (plan transparentBackgroundWebEmbeding and the
 * Background.transparent permission), shown in the Share/Embed checklist under this name and exclusive
 * with `background` and `background_color` (the most recently picked of the three wins).
 */
export const TRANSPARENT_BACKGROUND = 'transparent_background';

/** The longest screen recording the viewer makes (Screen.record, plan screenRecord): 5 minutes. */
export const RECORDING_MAX_SECONDS = 300;

/** What a share or embed link was made as. The same token opens both pages; this is the page it was made for. */
export const LINK_KINDS = ['share', 'embed'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/**
 * The one mapping from a link feature's stored name to the words people read (the Links page and
 * wherever else a link's features are shown). Keyed by every flag, so a new flag cannot go unnamed.
 */
export const EMBED_FLAG_LABELS: Readonly<Record<EmbedFlag | typeof TRANSPARENT_BACKGROUND, string>> = {
  info: 'Model information',
  draw: 'Drawing',
  play: 'Play button',
  labels: 'Part labels',
  labels_ui: 'Labels button',
  layers: 'Layers',
  full_screen: 'Full screen',
  zoom_controls: 'Zoom controls',
  table_of_content: 'Table of contents',
  background: 'Background image',
  background_color: 'Background colour',
  center_model: 'Centre model',
  hide_modal: 'Panels start closed',
  desktop_view: 'Desktop view',
  animate: 'Plays on open',
  ar: 'Augmented reality',
  transparent_background: 'Transparent background',
};

/** A feature's words; an unknown name (an older link's) is shown as stored. */
export const embedFlagLabel = (flag: string): string =>
  (EMBED_FLAG_LABELS as Record<string, string>)[flag] ?? flag;

/** Up to this many features off reads as "All except ...". */
const FEW_OFF = 5;

/**
 * A link's features in words: each one named, or, when at most a few of the 15 flags are off, "All
 * except" those (easier to read than a list of a dozen); a transparent background is always named.
 */
export function describeLinkFeatures(settings: readonly string[], transparentBackground = false): string {
  const on = new Set(settings);
  const off = EMBED_FLAGS.filter((flag) => !on.has(flag));
  const extra = transparentBackground ? [embedFlagLabel(TRANSPARENT_BACKGROUND)] : [];
  const unknown = settings.filter((flag) => !(EMBED_FLAGS as readonly string[]).includes(flag));
  let flags: string;
  if (off.length === 0) flags = MSG.linkFeaturesAll;
  else if (off.length <= FEW_OFF) flags = MSG.linkFeaturesAllExcept(off.map(embedFlagLabel).join(', '));
  else if (on.size === 0) flags = extra.length ? '' : MSG.linkFeaturesNone;
  else flags = settings.map(embedFlagLabel).join(', ');
  if (off.length <= FEW_OFF && unknown.length) flags = [flags, ...unknown].join(', ');
  return [flags, ...extra].filter(Boolean).join(', ');
}
