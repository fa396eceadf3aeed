import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import sharp from 'sharp';
import { IMAGE_RULES } from '@helix/shared/images';
import { logoStorageKey, type InlineLogo, type MailLogos } from '@helix/server/mail/mail-logo';
import type { Storage } from '@helix/server/storage/storage';

/** The box the e-mail header shows a logo in (CSS pixels), as the layout did with CSS before. */
export const MAIL_LOGO_BOX = { width: 240, height: 40 } as const;
/** Pixels per CSS pixel in the PNG, so the logo stays sharp on phones and Retina screens. */
const DENSITY = 2;
/** A larger PNG is not sent (the header names the school instead): a logo should weigh a few kB. */
export const MAIL_LOGO_MAX_BYTES = 200 * 1024;
/** Raster formats a stored logo may be in (the upload check makes WebP; a hand-set one may be PNG or JPEG). */
const FORMATS = new Set(['webp', 'png', 'jpeg']);
/** Logos kept made, one per logo version (a new upload is a new key); bounded by bytes. */
const CACHE_BYTES = 16 * 1024 * 1024;
/** A logo that is missing or unreadable is looked at again after this long (ms). */
const UNUSABLE_TTL_MS = 10 * 60_000;

type Made = InlineLogo | 'unusable';

/**
 * The worker's mail logos (@helix/server/mail/mail-logo): the stored logo (the portal's own image, by
 * its storage key) made into a PNG that fits MAIL_LOGO_BOX at twice its pixels, with its transparency,
 * once per logo version for every e-mail that shows it (a 10,000-row bulk invite reads and converts it
 * once). Missing, not a raster image, over the logo rule's size (IMAGE_RULES.logo), undecodable or a PNG
 * over MAIL_LOGO_MAX_BYTES: null, and the e-mail names the school in text. A storage that fails: null
 * for this e-mail, tried again for the next.
 */
export function createInlineLogos(deps: { storage: Storage; publicUrl: string; logger?: Logger }): MailLogos {
  const made = new LRUCache<string, Made>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (value) => (value === 'unusable' ? 64 : value.png.byteLength + 64),
  });
  const making = new Map<string, Promise<Made | null>>();

  const make = async (key: string): Promise<Made | null> => {
    let bytes: Buffer | null;
    try {
      bytes = await deps.storage.getBytes(key);
    } catch (err) {
      deps.logger?.warn({ err, key }, 'mail logo not read; the e-mail names the school in text');
      return null;
    }
    const logo = bytes ? await toInlineLogo(bytes) : null;
    if (!logo)
      deps.logger?.warn({ key }, 'mail logo missing or unusable; the e-mail names the school in text');
    return logo ?? 'unusable';
  };

  return {
    async inline(logoUrl) {
      const key = logoStorageKey(logoUrl, deps.publicUrl);
      if (!key) return null;
      let result = made.get(key);
      if (result === undefined) {
        let pending = making.get(key);
        if (!pending) {
          pending = make(key).finally(() => making.delete(key));
          making.set(key, pending);
        }
        const fresh = await pending;
        if (fresh === null) return null;
        if (!made.has(key)) made.set(key, fresh, fresh === 'unusable' ? { ttl: UNUSABLE_TTL_MS } : {});
        result = fresh;
      }
      return result === 'unusable' ? null : result;
    },
  };
}

/** The stored logo as an e-mail's PNG, or null when it cannot be one (see createInlineLogos). */
export async function toInlineLogo(bytes: Buffer): Promise<InlineLogo | null> {
  const rule = IMAGE_RULES.logo;
  if (bytes.byteLength === 0 || bytes.byteLength > rule.maxBytes) return null;
  try {
    const input = sharp(bytes, { limitInputPixels: rule.maxWidth * rule.maxHeight, failOn: 'error' });
    const meta = await input.metadata();
    if (!FORMATS.has(meta.format ?? '')) return null;
    if (!meta.width || !meta.height || meta.width > rule.maxWidth || meta.height > rule.maxHeight)
      return null;
    const { data, info } = await input
      .rotate()
      .resize({
        width: MAIL_LOGO_BOX.width * DENSITY,
        height: MAIL_LOGO_BOX.height * DENSITY,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .png({ compressionLevel: 9, palette: true })
      .timeout({ seconds: 10 })
      .toBuffer({ resolveWithObject: true });
    if (data.byteLength > MAIL_LOGO_MAX_BYTES || !info.width || !info.height) return null;
    // Shown filling the header's box as before (height 40, at most 240 wide), whatever its pixels.
    const scale = Math.min(MAIL_LOGO_BOX.width / info.width, MAIL_LOGO_BOX.height / info.height);
    return {
      cid: `logo.${createHash('sha256').update(data).digest('hex').slice(0, 20)}@helix`,
      png: data,
      width: Math.max(1, Math.round(info.width * scale)),
      height: Math.max(1, Math.round(info.height * scale)),
    };
  } catch {
    return null;
  }
}
