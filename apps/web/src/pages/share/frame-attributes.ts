/** What the viewer frame may use, on the share and embed pages alike. */
export const FRAME_ALLOW = 'fullscreen; xr-spatial-tracking; autoplay';

/** The viewer frame's accessible name. */
export const frameTitle = (modelName: string): string => `${modelName} viewer`;
