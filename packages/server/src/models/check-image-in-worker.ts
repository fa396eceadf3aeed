import { randomBytes } from 'node:crypto';
import { JOBS, MSG, ValidateImageResult, type ImagePurpose } from '@helix/shared';
import { IMAGE_RULES } from '@helix/shared/images';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { storageOf } from '../storage/create-storage.ts';
import { StorageUnavailableError } from '../storage/storage-unavailable.error.ts';
import { imageCheckUnavailable, tenantImageSlot } from './tenant-image-slot.ts';

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
 * bytes go to storage under a temporary key, the worker checks type, size and dimensions with sharp
 * within its budget and writes the re-encoded image. Answers the stored image's key.
 *
 * - refused image: 400 field error on `field` with the rule's message; over the check's budget
 *   (an SVG filter bomb): 422 IMAGE_TOO_COMPLEX;
 * - at most IMAGE_CHECKS_PER_TENANT of the tenant's checks run at once (tenantImageSlot): 429
 *   IMAGE_CHECK_BUSY when the tenant's earlier uploads hold the slot too long;
 * - storage failed (here or in the worker): 503 STORAGE_UNAVAILABLE, nothing stored;
 * - no answer from the worker in time: 503 IMAGE_CHECK_UNAVAILABLE.
 */
export async function checkImageInWorker(
  deps: ServerDeps,
  bytes: Buffer,
  purpose: ImagePurpose,
  field: string,
  tenantId: number,
): Promise<string> {
  const rule = IMAGE_RULES[purpose];
  if (bytes.byteLength > rule.maxBytes)
    throw AppError.badRequest(rule.sizeMessage, { [field]: rule.sizeMessage });
  if (bytes.byteLength === 0)
    throw AppError.badRequest(MSG.imageTypeNotAllowed, { [field]: MSG.imageTypeNotAllowed });

  const slot = await tenantImageSlot(deps, tenantId, field);
  try {
    return await runCheck(deps, bytes, purpose, field);
  } finally {
    await slot.release();
  }
}

async function runCheck(
  deps: ServerDeps,
  bytes: Buffer,
  purpose: ImagePurpose,
  field: string,
): Promise<string> {
  const storage = storageOf(deps);
  const id = randomBytes(16).toString('base64url');
  const key = `tmp/${id}`;
  try {
    await storage.put(key, bytes, 'application/octet-stream');
  } catch (error) {
    if (error instanceof StorageUnavailableError) {
      deps.logger.error({ err: error.cause ?? error, purpose }, 'upload not stored: storage unavailable');
      throw new StorageUnavailableError(error.cause, field);
    }
    throw error;
  }
  let answer: unknown;
  try {
    answer = await deps.queue.run(JOBS.validateImage, { key, purpose }, `validate-image-${id}`, {
      timeoutMs: deps.config.IMAGE_CHECK_TIMEOUT_MS,
    });
  } catch (err) {
    deps.logger.warn({ err, purpose }, 'image check did not finish');
    await storage.delete(key).catch(() => undefined);
    throw imageCheckUnavailable(field);
  }
  const result = ValidateImageResult.parse(answer);
  if (result.ok) return result.key;
  if (result.code === 'STORAGE_UNAVAILABLE') throw new StorageUnavailableError(undefined, field);
  if (result.code === 'IMAGE_TOO_COMPLEX') {
    throw new AppError(ERROR_CODES.imageTooComplex, {
      status: 422,
      message: result.message,
      errors: { [field]: result.message },
    });
  }
  throw AppError.badRequest(result.message, { [field]: result.message });
}
