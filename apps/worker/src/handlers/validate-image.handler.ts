import { DelayedError, type Job } from 'bullmq';
import sharp from 'sharp';
import type { Logger } from 'pino';
import { MSG, type ImagePurpose, type ValidateImageResult } from '@helix/shared';
import type { ImageCheckBudget } from '@helix/shared/images';
import type { Storage } from '@helix/server/storage/storage';
import { StorageUnavailableError } from '@helix/server/storage/storage-unavailable.error';
import { checkAndReencodeImage } from '../images/check-and-reencode-image.ts';
import type { JobHandler } from '../registry.ts';
import { mayBeSvg, type SvgLanes } from '../images/svg-lanes.ts';

/** How long an SVG check waits, off its slot, when every SVG lane is busy, before it looks again. */
export const SVG_LANE_WAIT_MS = 100;

class NoSvgLane extends Error {}

/** `tmp/<id>` becomes `images/<purpose>-<id>.webp`: a retry of the same job writes the same key. */
export const outputKeyOf = (tmpKey: string, purpose: string) =>
  `images/${purpose}-${tmpKey.slice('tmp/'.length)}.webp`;

/**
 * validate-image: reads the upload, checks and re-encodes it (images/check-image.ts), writes the result,
 * deletes the upload and answers ValidateImageResult (the API waits for it). A refused image is an
 * answer, not a failure, and so is a storage failure (code STORAGE_UNAVAILABLE: the API names it, and
 * a retry while the request waits would not mend a full or read-only disk); anything else throws.
 */
export function validateImageHandler(deps: {
  storage: Storage;
  logger?: Logger;
  /** Without it, SVGs may take every slot. */
  svgLanes?: SvgLanes;
  /** IMAGE_CHECK_BUDGET unless given (a test about something else than the budget on a loaded machine). */
  budget?: ImageCheckBudget;
}): JobHandler<'validate-image'> {
  return async (
    { key, purpose },
    job?: Pick<Job, 'moveToDelayed' | 'timestamp' | 'processedOn'>,
    token?: string,
  ): Promise<ValidateImageResult> => {
    // From the upload's enqueue to this attempt (for an SVG, its turns waiting for a lane included).
    const queuedMs = job?.processedOn ? Math.max(0, job.processedOn - job.timestamp) : undefined;
    try {
      return await checkStored(deps, key, purpose, queuedMs);
    } catch (error) {
      if (error instanceof NoSvgLane && job) {
        // Off the slot, so a bitmap behind it is checked now; the API keeps waiting for the answer.
        await job.moveToDelayed(Date.now() + SVG_LANE_WAIT_MS, token);
        throw new DelayedError();
      }
      if (!(error instanceof StorageUnavailableError)) throw error;
      deps.logger?.error({ err: error.cause ?? error, purpose }, 'image check: storage unavailable');
      await deps.storage.delete(key).catch(() => undefined);
      return { ok: false, code: 'STORAGE_UNAVAILABLE', message: MSG.storageUnavailable };
    }
  };
}

async function checkStored(
  deps: { storage: Storage; logger?: Logger; svgLanes?: SvgLanes; budget?: ImageCheckBudget },
  key: string,
  purpose: ImagePurpose,
  queuedMs?: number,
): Promise<ValidateImageResult> {
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
  const svg = mayBeSvg(bytes);
  const lanes = svg ? deps.svgLanes : undefined;
  if (lanes && !lanes.tryTake()) throw new NoSvgLane();
  // Busy SVG lanes when this check started: a bitmap checked beside full lanes did not wait for a bomb.
  const svgLanesBusy = deps.svgLanes?.busy;
  const started = performance.now();
  let result: Awaited<ReturnType<typeof checkAndReencodeImage>>;
  try {
    result = await checkAndReencodeImage(bytes, purpose, deps.budget);
  } finally {
    lanes?.release();
  }
  if (result.ok) await deps.storage.put(output, result.bytes, result.contentType);
  await deps.storage.delete(key);
  deps.logger?.info(
    {
      purpose,
      ok: result.ok,
      code: result.ok ? undefined : result.code,
      svg,
      queuedMs,
      svgLanesBusy,
      checkMs: Math.round(performance.now() - started),
    },
    'image checked',
  );
  return result.ok
    ? { ok: true, key: output, contentType: result.contentType, width: result.width, height: result.height }
    : { ok: false, message: result.message, code: result.code };
}
