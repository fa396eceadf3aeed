import { IMAGE_KEY_PREFIX, imageKeyOf } from '../presenters/image-url.ts';

/*
 * A school's logo in its e-mails is a PNG part of the message itself, shown by its Content-ID
 * (`<img src="cid:...">`): Outlook shows no WebP (the stored logos are WebP) and most clients hold back
 * remote images until the reader allows them, while an inline part is shown at once by Outlook, Gmail
 * and Apple Mail. The worker makes the PNG (apps/worker/src/mail/inline-logos.ts); when it cannot (no
 * such image, unreadable, too large), the e-mail names the school in text instead.
 */

/** A logo ready to travel inside an e-mail. */
export interface InlineLogo {
  /** The Content-ID of the message's part; the HTML shows it as `cid:<cid>`. Stable per logo version. */
  cid: string;
  png: Buffer;
  /** The size the e-mail shows it at, in CSS pixels (the PNG has twice as many for sharp screens). */
  width: number;
  height: number;
}

/** Gives the inline logo for a brand's logo URL (MailBrand.logoUrl), or null to name the school in text. */
export interface MailLogos {
  inline(logoUrl: string): Promise<InlineLogo | null>;
}

/**
 * The storage key of a brand's logo URL: only the portal's own stored image
 * (`<PUBLIC_URL origin>/api/files/images/<name>`, image-url.ts), else null.
 */
export function logoStorageKey(logoUrl: string, publicUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(logoUrl);
  } catch {
    return null;
  }
  if (url.origin !== new URL(publicUrl).origin || url.search) return null;
  const prefix = `/api/files/${IMAGE_KEY_PREFIX}`;
  if (!url.pathname.startsWith(prefix)) return null;
  try {
    return imageKeyOf(decodeURIComponent(url.pathname.slice(prefix.length)));
  } catch {
    return null;
  }
}
