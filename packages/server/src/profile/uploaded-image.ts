import { MSG } from '@helix/shared';
import { AppError } from '../errors.ts';
import { decodeDataUrl } from '../models/check-image-in-worker.ts';

/**
 * The new image a form sends for one field, as bytes: a file part (multipart) wins over a data URL in
 * the text field of the same name. Null when it sends none ('' , 'null' or absent); a text value that is
 * not a base64 data URL is the spec's type message on the field. Its content is checked in the worker.
 */
export function newImageBytes(
  field: string,
  value: string | null | undefined,
  file: { buffer: Buffer } | undefined,
): Buffer | null {
  if (file) return file.buffer;
  if (value === undefined || value === null || value === '' || value === 'null') return null;
  const bytes = decodeDataUrl(value);
  if (!bytes) throw AppError.badRequest(MSG.imageTypeNotAllowed, { [field]: MSG.imageTypeNotAllowed });
  return bytes;
}
