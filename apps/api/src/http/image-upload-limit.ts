import type { Request, RequestHandler } from 'express';
import { MSG } from '@helix/shared';
import type { ServerDeps } from '@helix/server/deps';
import { rateLimiter } from './rate-limit.ts';
import { uploadedFiles } from './upload.ts';

/** Whether the request carries an image in one of `fields`: a file part or a data URL. */
function carriesImage(req: Request, fields: readonly string[]): boolean {
  const files = uploadedFiles(req);
  const body = (req.body ?? {}) as Record<string, unknown>;
  return fields.some((field) => {
    const value = body[field];
    return files[field] !== undefined || (typeof value === 'string' && /^\s*data:/i.test(value));
  });
}

/**
 * Image uploads per user (issue 16): every route that takes an image counts in one counter per user,
 * IMAGE_UPLOAD_RATE_LIMIT_MAX per IMAGE_UPLOAD_RATE_LIMIT_WINDOW_SECONDS; over it, 429 with
 * MSG.imageUploadsTooMany and Retry-After. A request without an image (a name change) is not counted.
 * Put it after the upload middleware (the files must be read) and after `idempotent`: a replayed answer
 * is not counted again, and idempotency never stores a 429.
 */
export function imageUploadLimiter(
  deps: Pick<ServerDeps, 'redis' | 'config' | 'logger'>,
  fields: readonly string[],
): RequestHandler {
  return rateLimiter({
    redis: deps.redis,
    prefix: deps.config.REDIS_PREFIX,
    logger: deps.logger,
    name: 'image-upload',
    limit: deps.config.IMAGE_UPLOAD_RATE_LIMIT_MAX,
    windowSeconds: deps.config.IMAGE_UPLOAD_RATE_LIMIT_WINDOW_SECONDS,
    key: (req) => (req.actor && carriesImage(req, fields) ? `user-${req.actor.user.id}` : null),
    message: MSG.imageUploadsTooMany,
  });
}
