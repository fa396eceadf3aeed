import sharp, { type Metadata } from 'sharp';
import { MSG, type ImagePurpose } from '@helix/shared';
import { IMAGE_RULES, IMAGE_TYPES } from '@helix/shared/images';

export type ImageCheck =
  | { ok: true; bytes: Buffer; width: number; height: number; contentType: 'image/webp' }
  | { ok: false; message: string };

const refuse = (message: string): ImageCheck => ({ ok: false, message });

/** An SVG that declares entities (expansion bombs) is refused before librsvg sees it. */
const SVG_ENTITY = /<!ENTITY/i;
/** The most pixels an SVG may be rasterised to (its density is bounded, so this is a backstop). */
const SVG_RASTER_PIXELS = 25_000_000;

/**
 * Checks an uploaded image by its content and re-encodes it (administration-content 5 and 9): type
 * jpeg, png, webp or svg (whatever the file was called); at most the purpose's bytes and pixel
 * dimensions (the spec's messages); decoded under sharp's pixel limit, so a small file that declares
 * a huge picture cannot exhaust memory. The result is always WebP (an SVG is rasterised, never served
 * as SVG), without metadata, turned upright and resized to what the purpose needs.
 */
export async function checkAndReencodeImage(bytes: Buffer, purpose: ImagePurpose): Promise<ImageCheck> {
  const rule = IMAGE_RULES[purpose];
  if (bytes.byteLength > rule.maxBytes) return refuse(rule.sizeMessage);
  const limitInputPixels = rule.maxWidth * rule.maxHeight;

  let meta: Metadata;
  try {
    // The header only (nothing decoded yet), so the declared size can get the spec's message; the
    // pixel limit guards the decode below.
    meta = await sharp(bytes, { limitInputPixels: false, failOn: 'error' }).metadata();
  } catch {
    return refuse(MSG.imageTypeNotAllowed);
  }
  if (!(IMAGE_TYPES as readonly string[]).includes(meta.format ?? '')) return refuse(MSG.imageTypeNotAllowed);
  const isSvg = meta.format === 'svg';
  if (isSvg && SVG_ENTITY.test(bytes.toString('utf8'))) return refuse(MSG.imageTypeNotAllowed);
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) return refuse(MSG.imageTypeNotAllowed);
  if (width > rule.maxWidth || height > rule.maxHeight) return refuse(rule.dimensionMessage);

  const { output } = rule;
  // A thumbnail is cut to its card: rasterise a small SVG at a density that covers it (an SVG's own size
  // is at 72 dpi), so it is not blurred by enlarging pixels. Other purposes only shrink.
  const density =
    isSvg && output.fit === 'cover'
      ? Math.min(600, Math.max(72, Math.ceil(72 * Math.max(output.width / width, output.height / height))))
      : undefined;
  try {
    const { data, info } = await sharp(bytes, {
      limitInputPixels: isSvg ? SVG_RASTER_PIXELS : limitInputPixels,
      failOn: 'error',
      density,
    })
      .rotate()
      .resize({
        width: output.width,
        height: output.height,
        fit: output.fit,
        withoutEnlargement: output.fit === 'inside',
      })
      .webp({ quality: 82, alphaQuality: 90 })
      .toBuffer({ resolveWithObject: true });
    return { ok: true, bytes: data, width: info.width, height: info.height, contentType: 'image/webp' };
  } catch {
    return refuse(MSG.imageTypeNotAllowed);
  }
}
