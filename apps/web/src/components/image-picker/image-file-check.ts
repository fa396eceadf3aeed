import { MSG, type ImagePurpose } from '@helix/shared';
import { IMAGE_RULES } from '@helix/shared/images';

export interface PixelSize {
  width: number;
  height: number;
}

const ACCEPTED = /\.(jpe?g|png|svg|webp)$/i;
const ACCEPTED_TYPES = new Set(['image/jpeg', 'image/png', 'image/svg+xml', 'image/webp']);

export const isAcceptedImage = (file: { name: string; type: string }): boolean =>
  ACCEPTED_TYPES.has(file.type) || ACCEPTED.test(file.name);

/** The picture's size as the browser decodes it (an <img>, so SVG works too). */
function naturalSize(file: Blob): Promise<PixelSize> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      resolve({ width: img.naturalWidth, height: img.naturalHeight });
      URL.revokeObjectURL(url);
    };
    img.onerror = () => {
      reject(new Error('not an image'));
      URL.revokeObjectURL(url);
    };
    img.src = url;
  });
}

/**
 * The spec's message for a chosen file before it is sent (administration-content 5): type, size, then
 * dimensions. The server checks all of it again by content; this only saves a slow upload.
 */
export async function imageFileProblem(
  file: File,
  purpose: ImagePurpose,
  readSize: (file: File) => Promise<PixelSize> = naturalSize,
): Promise<string | null> {
  const rule = IMAGE_RULES[purpose];
  if (!isAcceptedImage(file)) return MSG.imageTypeNotAllowed;
  if (file.size > rule.maxBytes) return rule.sizeMessage;
  const size = await readSize(file).catch(() => null);
  if (!size) return MSG.imageTypeNotAllowed;
  if (size.width > rule.maxWidth || size.height > rule.maxHeight) return rule.dimensionMessage;
  return null;
}
