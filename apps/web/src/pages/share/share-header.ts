import type { EmbedDetail } from '@helix/shared/schemas/model';
import { safeFrameUrl } from '../../models/share-links';

/** What the share page's header shows: the school's look, the model's name and who shared it. */
export interface ShareHeaderView {
  /** The school's name (its brand name; never the slug of its white-label addresses). */
  brandName: string;
  /** The school's logo (an http(s) address), or Helix's mark. */
  logo: string;
  /** The school's primary colour: its name and the header's underline (as on its white-label login). */
  colour: string;
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
    title: detail.modelName.trim() || 'Shared model',
    sharedBy: detail.user.name.trim() ? `Shared by ${detail.user.name.trim()}` : null,
  };
}

/** The header as DOM (no React: ./share-start.ts). Text goes in as text, never as markup. */
export function shareHeaderElement(doc: Document, view: ShareHeaderView): HTMLElement {
  const header = doc.createElement('header');
  header.className = 'share-header';
  header.style.borderBottomColor = view.colour;

  const brand = doc.createElement('span');
  brand.className = 'share-brand';
  brand.dataset.testid = 'share-brand';
  brand.style.color = view.colour;
  const logo = doc.createElement('img');
  logo.src = view.logo;
  // The school's name follows the logo as text, so the logo itself says nothing more.
  logo.alt = '';
  logo.height = 36;
  logo.decoding = 'async';
  const name = doc.createElement('span');
  name.textContent = view.brandName;
  brand.append(logo, name);

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
