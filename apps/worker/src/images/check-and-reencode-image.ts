import sharp, { type Metadata, type ResizeOptions, type SharpOptions, type WebpOptions } from 'sharp';
import { MSG, type ImagePurpose } from '@helix/shared';
import { IMAGE_CHECK_BUDGET, IMAGE_RULES, IMAGE_TYPES, type ImageCheckBudget } from '@helix/shared/images';
import { rasteriseInChild } from './rasterise-in-child.ts';
import { svgOverBudget } from './svg-budget.ts';

export type ImageCheck =
  | { ok: true; bytes: Buffer; width: number; height: number; contentType: 'image/webp' }
  | { ok: false; message: string; code?: 'IMAGE_TOO_COMPLEX' };

const refuse = (message: string): ImageCheck => ({ ok: false, message });
const tooComplex = (): ImageCheck => ({ ok: false, message: MSG.imageTooComplex, code: 'IMAGE_TOO_COMPLEX' });

/** An SVG that declares entities (expansion bombs) is refused before librsvg sees it. */
const SVG_ENTITY = /<!ENTITY/i;
/** sharp's messages for a pipeline stopped by its `timeout` or its pixel limit. */
const OVER_BUDGET = /^timeout:|pixel limit/i;

/**
 * Checks an uploaded image by its content and re-encodes it (administration-content 5 and 9): type
 * jpeg, png, webp or svg (whatever the file was called); at most the purpose's bytes and pixel
 * dimensions (the spec's messages); decoded under sharp's pixel limit, so a small file that declares
 * a huge picture cannot exhaust memory. The result is always WebP (an SVG is rasterised, never served
 * as SVG), without metadata, turned upright and resized to what the purpose needs.
 *
 * Within a budget (IMAGE_CHECK_BUDGET): an SVG whose filters would make rasterising unbounded is
 * refused before rasterising; an SVG is rasterised in a child process killed at the time limit; other
 * formats get sharp's `timeout`. Over budget is a refusal with MSG.imageTooComplex.
 */
export async function checkAndReencodeImage(
  bytes: Buffer,
  purpose: ImagePurpose,
  budget: ImageCheckBudget = IMAGE_CHECK_BUDGET,
): Promise<ImageCheck> {
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
  if (isSvg) {
    const text = bytes.toString('utf8');
    if (SVG_ENTITY.test(text)) return refuse(MSG.imageTypeNotAllowed);
    if (svgOverBudget(text, budget)) return tooComplex();
  }
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
  const input: SharpOptions = {
    limitInputPixels: isSvg ? budget.svgPixels : limitInputPixels,
    failOn: 'error',
    density,
  };
  const resize: ResizeOptions = {
    width: output.width,
    height: output.height,
    fit: output.fit,
    withoutEnlargement: output.fit === 'inside',
  };
  const webp: WebpOptions = { quality: 82, alphaQuality: 90 };
  if (isSvg) {
    const raster = await rasteriseInChild({ bytes, input, resize, webp }, budget.seconds);
    if (raster.ok) return { ...raster, contentType: 'image/webp' };
    return raster.reason === 'timeout' || OVER_BUDGET.test(raster.detail)
      ? tooComplex()
      : refuse(MSG.imageTypeNotAllowed);
  }
  try {
    const { data, info } = await sharp(bytes, input)
      .rotate()
      .resize(resize)
      .webp(webp)
      .timeout({ seconds: budget.seconds })
      .toBuffer({ resolveWithObject: true });
    return { ok: true, bytes: data, width: info.width, height: info.height, contentType: 'image/webp' };
  } catch (error) {
    return error instanceof Error && OVER_BUDGET.test(error.message)
      ? tooComplex()
      : refuse(MSG.imageTypeNotAllowed);
  }
}
