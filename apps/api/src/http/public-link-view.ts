import type { ShareHeaderView } from '@helix/shared/link-page';

/**
 * What /share/{token} and /embed/{token} show, decided by the server (public-link-page.ts) before the
 * web's server bundle renders it with React (apps/web/src/pages/share/link-page.tsx): the share
 * page's header from the link's school, model and maker, and the page's title.
 */

export type { ShareHeaderView } from '@helix/shared/link-page';

/** The document title of a page: `{page} · Helix` (as the web app's ui/title-text.ts). */
export const titleText = (title: string): string => `${title} · Helix`;

/** The share page's default logo (a file of the web app). */
export const HELIX_MARK = '/favicon.svg';

/** What the header is drawn from: the link's school (branding as presented), model and maker. */
export interface ShareHeaderSource {
  branding: { name: string; brandLogo: string | null; primaryColor: string };
  modelName: string;
  creatorName: string;
}

/** An http(s) address (absolute, or relative to `origin`), or null. */
function safeUrl(url: string | null, origin: string): string | null {
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
