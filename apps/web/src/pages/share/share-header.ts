import type { EmbedDetail } from '@helix/shared/schemas/model';
import { safeFrameUrl } from '../../models/share-links';

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

/** The share page's default logo (a file of the web app). */
export const HELIX_MARK = '/favicon.svg';

/** The header of /share/{token} for an embed detail answer; `origin` is the page's own. */
export function shareHeaderView(detail: EmbedDetail, origin: string): ShareHeaderView {
  return {
    brandName: detail.branding.name.trim() || 'Helix',
    logo: safeFrameUrl(detail.branding.brandLogo, origin) ?? HELIX_MARK,
    colour: detail.branding.primaryColor,
    nameColour: contrastOnWhite(detail.branding.primaryColor) >= 4.5 ? detail.branding.primaryColor : null,
    title: detail.modelName.trim() || 'Shared model',
    sharedBy: detail.user.name.trim() ? `Shared by ${detail.user.name.trim()}` : null,
  };
}

/** The logo's height in the header (share.css keeps it to this and at most LOGO_MAX_WIDTH wide). */
export const LOGO_HEIGHT = 36;
export const LOGO_MAX_WIDTH = 160;

/**
 * The box the logo is drawn in, so nothing moves when it arrives (layout shift): its own proportions
 * at the header's height when they are known, else a square (a mark; a wide logo is fitted inside).
 */
export function logoBox(natural: { width: number; height: number } | null): {
  width: number;
  height: number;
} {
  if (!natural || natural.width <= 0 || natural.height <= 0)
    return { width: LOGO_HEIGHT, height: LOGO_HEIGHT };
  const width = Math.min(LOGO_MAX_WIDTH, Math.round((natural.width * LOGO_HEIGHT) / natural.height));
  return { width: Math.max(1, width), height: LOGO_HEIGHT };
}

/**
 * The header as DOM (no React: ./share-start.ts). Text goes in as text, never as markup. `logo` is the
 * logo's image when it has already loaded (its proportions give its box).
 */
export function shareHeaderElement(
  doc: Document,
  view: ShareHeaderView,
  logo: HTMLImageElement | null = null,
): HTMLElement {
  const header = doc.createElement('header');
  header.className = 'share-header';
  header.style.borderBottomColor = view.colour;

  const brand = doc.createElement('span');
  brand.className = 'share-brand';
  brand.dataset.testid = 'share-brand';
  if (view.nameColour) brand.style.color = view.nameColour;
  const loaded = logo?.complete && logo.naturalWidth > 0 ? logo : null;
  const image = loaded ?? doc.createElement('img');
  const box = logoBox(loaded && { width: loaded.naturalWidth, height: loaded.naturalHeight });
  image.src = view.logo;
  // The school's name follows the logo as text, so the logo itself says nothing more.
  image.alt = '';
  image.width = box.width;
  image.height = box.height;
  const name = doc.createElement('span');
  name.textContent = view.brandName;
  brand.append(image, name);

  const title = doc.createElement('h1');
  title.className = 'share-title';
  title.textContent = view.title;
  header.append(brand, title);

  if (view.sharedBy) {
    const by = doc.createElement('span');
    by.className = 'share-by';
    by.textContent = view.sharedBy;
    header.append(by);
  }
  return header;
}

/**
 * The contrast ratio of a `#rgb` / `#rrggbb` colour against white (WCAG 2 relative luminance); 1 for
 * anything else. Ten lines rather than a colour library on a page kept to a few kB.
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
