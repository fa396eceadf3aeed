import sharp from 'sharp';
import type { Logger } from 'pino';
import type { ValidateImageResult } from '@helix/shared';
import type { Storage } from '@helix/server/storage/storage';
import { checkAndReencodeImage } from '../images/check-and-reencode-image.ts';
import type { JobHandler } from '../registry.ts';

/** `tmp/<id>` becomes `images/<purpose>-<id>.webp`: a retry of the same job writes the same key. */
export const outputKeyOf = (tmpKey: string, purpose: string) =>
  `images/${purpose}-${tmpKey.slice('tmp/'.length)}.webp`;

/**
 * validate-image: reads the upload, checks and re-encodes it (images/check-image.ts), writes the result,
 * deletes the upload and answers ValidateImageResult (the API waits for it). A refused image is an
 * answer, not a failure; only storage trouble throws (and is retried).
 */
export function validateImageHandler(deps: {
  storage: Storage;
  logger?: Logger;
}): JobHandler<'validate-image'> {
  return async ({ key, purpose }): Promise<ValidateImageResult> => {
    const output = outputKeyOf(key, purpose);
    const bytes = await deps.storage.getBytes(key);
    if (!bytes) {
      // A retry after the first attempt stored the result and removed the upload.
      const done = await deps.storage.getBytes(output);
      if (!done) return { ok: false, message: 'The upload was not found.' };
      const meta = await sharp(done).metadata();
      return {
        ok: true,
        key: output,
        contentType: 'image/webp',
        width: meta.width ?? 0,
        height: meta.height ?? 0,
      };
    }
    const result = await checkAndReencodeImage(bytes, purpose);
    if (result.ok) await deps.storage.put(output, result.bytes, result.contentType);
    await deps.storage.delete(key);
    deps.logger?.info({ purpose, ok: result.ok }, 'image checked');
    return result.ok
      ? { ok: true, key: output, contentType: result.contentType, width: result.width, height: result.height }
      : { ok: false, message: result.message };
  };
}
