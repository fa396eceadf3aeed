/** The 15 viewer features an embed or share link can switch on or off (all on by default). */
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
] as const;

export type EmbedFlag = (typeof EMBED_FLAGS)[number];

export const VIEWER_MODES = ['standard', 'embedding'] as const;
export type ViewerMode = (typeof VIEWER_MODES)[number];

/**
 * Not one of the 15 flags: a link option of its own (plan transparentBackgroundWebEmbeding and the
 * Background.transparent permission), shown in the Share/Embed checklist under this name and exclusive
 * with `background` and `background_color` (the most recently picked of the three wins).
 */
export const TRANSPARENT_BACKGROUND = 'transparent_background';

/** The longest screen recording the viewer makes (Screen.record, plan screenRecord): 5 minutes. */
export const RECORDING_MAX_SECONDS = 300;
