import { randomBytes } from 'node:crypto';
import { JOBS, MSG, ValidateImageResult, type ImagePurpose } from '@helix/shared';
import { IMAGE_RULES } from '@helix/shared/images';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { storageOf } from '../storage/create-storage.ts';

/**
 * Decodes a `data:<type>;base64,<data>` URL. The declared type is ignored: the image is checked by
 * content. Null when it is not a base64 data URL.
 */
export function decodeDataUrl(value: string): Buffer | null {
  const match = /^data:[\w.+/-]*(?:;[\w=.+-]+)*;base64,([\s\S]*)$/i.exec(value.trim());
  if (!match) return null;
  const data = (match[1] ?? '').replace(/\s+/g, '');
  if (data.length === 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 === 1) return null;
  return Buffer.from(data, 'base64');
}

/**
 * Checks an uploaded image by content in the worker (validate-image) while the request waits: the
 * bytes go to storage under a temporary key, the worker checks type, size and dimensions with sharp and
 * writes the re-encoded image. Answers the stored image's key; a refused image is a 400 field error on
 * `field` with the rule's message; no answer from the worker in time is a 503.
 */
export async function checkImageInWorker(
  deps: ServerDeps,
  bytes: Buffer,
  purpose: ImagePurpose,
  field: string,
): Promise<string> {
  const rule = IMAGE_RULES[purpose];
  if (bytes.byteLength > rule.maxBytes)
    throw AppError.badRequest(rule.sizeMessage, { [field]: rule.sizeMessage });
  if (bytes.byteLength === 0)
    throw AppError.badRequest(MSG.imageTypeNotAllowed, { [field]: MSG.imageTypeNotAllowed });

  const storage = storageOf(deps);
  const id = randomBytes(16).toString('base64url');
  const key = `tmp/${id}`;
  await storage.put(key, bytes, 'application/octet-stream');
  let answer: unknown;
  try {
    answer = await deps.queue.run(JOBS.validateImage, { key, purpose }, `validate-image-${id}`, {
      timeoutMs: deps.config.IMAGE_CHECK_TIMEOUT_MS,
    });
  } catch (err) {
    deps.logger.warn({ err, purpose }, 'image check did not finish');
    await storage.delete(key).catch(() => undefined);
    throw new AppError('IMAGE_CHECK_UNAVAILABLE', {
      status: 503,
      message: MSG.imageCheckUnavailable,
      error: 'Service Unavailable',
      errors: { [field]: MSG.imageCheckUnavailable },
    });
  }
  const result = ValidateImageResult.parse(answer);
  if (!result.ok) throw AppError.badRequest(result.message, { [field]: result.message });
  return result.key;
}
