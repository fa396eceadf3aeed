import { MSG } from '@helix/shared';
import { escapeHtml } from '@helix/server/escape-html';

/**
 * The markup of /share/{token} and /embed/{token}, drawn by the server (public-link-page.ts) into the
 * embed document's #root: the viewer frame is in the page's first bytes, so the viewer's code and its
 * one API call start with the page instead of after the page's own scripts and call. The styles are
 * the web app's pages/share/share.css, inlined into the embed document by its build. Every text and
 * address goes in escaped.
 */

/** What the viewer frame may use, on the share and embed pages alike. */
export const FRAME_ALLOW = 'fullscreen; xr-spatial-tracking; autoplay';

/** The viewer frame's accessible name. */
export const frameTitle = (modelName: string): string => `${modelName} viewer`;

/** The document title of a page: `{page} · Helix` (as the web app's ui/title-text.ts). */
export const titleText = (title: string): string => `${title} · Helix`;

/** The share page's default logo (a file of the web app). */
export const HELIX_MARK = '/favicon.svg';

/** What the share page's header shows: the school's look, the model's name and who shared it. */
export interface ShareHeaderView {
  /** The school's name (its brand name; never the slug of its white-label addresses). */
  brandName: string;
  /** The school's logo (an http(s) address), or Helix's mark. */
  logo: string;
  /** The school's primary colour: the header's underline (as on its white-label login). */
  colour: string;
  /**
   * The name's colour: the school's when it is readable on the header's white (WCAG AA, 4.5:1), else
   * null (the page's text colour), so a light brand colour never makes the name unreadable.
   */
  nameColour: string | null;
  /** The page's heading: the model's name. */
  title: string;
  /** "Shared by …", or null when the link's maker has no name. */
  sharedBy: string | null;
}

/** What the header is drawn from: the link's school (branding as presented), model and maker. */
export interface ShareHeaderSource {
  branding: { name: string; brandLogo: string | null; primaryColor: string };
  modelName: string;
  creatorName: string;
}

/** An http(s) address (absolute, or relative to `origin`), or null. */
export function safeUrl(url: string | null, origin: string): string | null {
  if (!url?.trim()) return null;
  try {
    const parsed = new URL(url, origin);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** The header of /share/{token}; `origin` is the page's own. */
export function shareHeaderView(source: ShareHeaderSource, origin: string): ShareHeaderView {
  const colour = source.branding.primaryColor;
  return {
    brandName: source.branding.name.trim() || 'Helix',
    logo: safeUrl(source.branding.brandLogo, origin) ?? HELIX_MARK,
    colour,
    nameColour: contrastOnWhite(colour) >= 4.5 ? colour : null,
    title: source.modelName.trim() || 'Shared model',
    sharedBy: source.creatorName.trim() ? `Shared by ${source.creatorName.trim()}` : null,
  };
}

/**
 * The contrast ratio of a `#rgb` / `#rrggbb` colour against white (WCAG 2 relative luminance); 1 for
 * anything else.
 */
export function contrastOnWhite(colour: string): number {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim())?.[1];
  if (!hex) return 1;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = Number.parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  return 1.05 / (luminance + 0.05);
}

/** A colour safe inside a style attribute (a hex colour), else null. */
const cssColour = (colour: string | null): string | null =>
  colour && /^#[0-9a-f]{3,8}$/i.test(colour.trim()) ? colour.trim() : null;

const frame = (src: string, modelName: string): string =>
  `<iframe class="embed-frame" title="${escapeHtml(frameTitle(modelName))}" allow="${FRAME_ALLOW}" ` +
  `src="${escapeHtml(src)}"></iframe>`;

/** /embed/{token}: the viewer fills the window; a transparent link paints no background around it. */
export function embedPageMarkup(frameUrl: string, modelName: string, transparent: boolean): string {
  return `<div class="embed-page"${transparent ? ' data-transparent="true"' : ''}>${frame(frameUrl, modelName)}</div>`;
}

/** /share/{token}: the school's header (logo, name, colour, the model, who shared it) above the frame. */
export function sharePageMarkup(view: ShareHeaderView, frameUrl: string): string {
  const underline = cssColour(view.colour);
  const nameColour = cssColour(view.nameColour);
  // The school's name follows the logo as text, so the logo itself says nothing more (alt="").
  const header =
    `<header class="share-header"${underline ? ` style="border-bottom-color:${underline}"` : ''}>` +
    `<span class="share-brand" data-testid="share-brand"${nameColour ? ` style="color:${nameColour}"` : ''}>` +
    `<img src="${escapeHtml(view.logo)}" alt="" height="36"><span>${escapeHtml(view.brandName)}</span></span>` +
    `<h1 class="share-title">${escapeHtml(view.title)}</h1>` +
    (view.sharedBy ? `<span class="share-by">${escapeHtml(view.sharedBy)}</span>` : '') +
    `</header>`;
  return `<div class="share-page">${header}<main class="share-main">${frame(frameUrl, view.title)}</main></div>`;
}

/**
 * The panel of a share or embed page shown on a site its link is not allowed on (docs/links.md,
 * "Where a link may be shown"): no viewer, nothing counted, and words that tell the visitor why.
 */
export function notAllowedMarkup(): string {
  return (
    `<main class="link-not-allowed" data-testid="link-not-allowed"><div class="link-not-allowed-box" role="alert">` +
    `<h1>${escapeHtml(MSG.embedHostNotAllowed)}</h1><p>${escapeHtml(MSG.embedHostNotAllowedHint)}</p></div></main>`
  );
}
