type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | null | undefined | false;

/** Tiny DOM builder: attributes are set with setAttribute (boolean true = empty, false/null = skip). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An inline icon from constant path data (never user input). */
export function icon(paths: string): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  for (const d of paths.split('|')) {
    const p = document.createElementNS(SVG_NS, 'path');
    p.setAttribute('d', d);
    svg.append(p);
  }
  return svg;
}

export const ICONS = {
  play: 'M8 5v14l11-7z',
  pause: 'M6 5h4v14H6z|M14 5h4v14h-4z',
  labels: 'M3 7.5 7.5 3H21v13.5L16.5 21H3z|M7 9h8M7 13h6',
  draw: 'M4 20h4L19 9l-4-4L4 16z|M14 6l4 4',
  clear: 'M5 7h14M10 7V4h4v3M7 7l1 13h8l1-13',
  zoomIn: 'M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM20 20l-4-4|M8 11h6M11 8v6',
  zoomOut: 'M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM20 20l-4-4|M8 11h6',
  reset: 'M4 12a8 8 0 1 0 2.3-5.6M4 4v4h4',
  fullscreen: 'M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5',
  exitFullscreen: 'M9 4v5H4M20 9h-5V4M15 20v-5h5M4 15h5v5',
  info: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z|M12 11v6M12 7.5v.5',
  layers: 'M12 3 2 8l10 5 10-5z|M2 13l10 5 10-5',
  list: 'M8 6h13M8 12h13M8 18h13|M3 6h1M3 12h1M3 18h1',
  lesson: 'M12 3 2 8l10 5 10-5z|M6 10v5c3 2 9 2 12 0v-5',
  ar: 'M12 2.5 3.5 7.2v9.6l8.5 4.7 8.5-4.7V7.2z|M3.5 7.2 12 12l8.5-4.8M12 12v9.5',
} as const;
