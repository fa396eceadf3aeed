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
