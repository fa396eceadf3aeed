import { Router } from 'express';
import { MSG } from '@helix/shared';
import {
  SupportIdParams,
  SupportListQuery,
  SupportRequestCreate,
  SupportStatusUpdate,
} from '@helix/shared/schemas/support';
import { SUPPORT_RATE_LIMIT } from '@helix/shared/support';
import type { ServerDeps } from '@helix/server/deps';
import { storageOf } from '@helix/server/storage/create-storage';
import { createSupportRequest } from '@helix/server/support/create-support-request.command';
import { listSupportRequests, supportRequestPage } from '@helix/server/support/list-support-requests.query';
import { openSupportScreenshot } from '@helix/server/support/support-screenshot.query';
import { updateSupportStatus } from '@helix/server/support/update-support-status.command';
import { pipeline } from 'node:stream/promises';
import { audited } from '../http/audited.ts';
import { actorOf } from '../http/auth.ts';
import { imageUploadLimiter } from '../http/image-upload-limit.ts';
import { rateLimiter } from '../http/rate-limit.ts';
import { upload, uploadedFiles } from '../http/upload.ts';
import { wantsPage } from '../http/paged.ts';
import { inputOf, NoQuery, validate } from '../http/validate.ts';

const MB = 1024 * 1024;

/**
 * Fast-track support (issue 10), tenant calls (/api/t/:tenant, after auth and the tenant check):
 * POST /support for every signed-in user (limited per user); the list, status changes and
 * screenshots for platform admins (the support policy decides).
 */
export function supportRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });
  const screenshot = upload({
    files: [{ name: 'screenshot', maxBytes: 5 * MB, tooLarge: MSG.fileOver5mb, tooLargeStatus: 400 }],
    maxFieldBytes: 7_000_000,
    maxFields: 6,
  });
  // Counted per user (any address), after validation: a mistyped form does not use up the quota.
  const perUser = rateLimiter({
    redis: deps.redis,
    prefix: deps.config.REDIS_PREFIX,
    logger: deps.logger,
    name: 'support-request',
    ...SUPPORT_RATE_LIMIT,
    key: (req) => (req.actor ? `user-${req.actor.user.id}` : null),
    message: MSG.supportTooMany,
  });

  const screenshotLimit = imageUploadLimiter(deps, ['screenshot']);

  router.post(
    '/support',
    screenshot,
    validate(SupportRequestCreate),
    perUser,
    screenshotLimit,
    async (req, res) => {
      const file = uploadedFiles(req).screenshot;
      res
        .status(201)
        .json(await createSupportRequest(deps, actorOf(req), inputOf(req, SupportRequestCreate), file));
    },
  );

  router.get('/support', validate(SupportListQuery, 'query'), async (req, res) => {
    const query = inputOf(req, SupportListQuery);
    res.set('Cache-Control', 'no-store');
    res.json(
      wantsPage(req)
        ? await supportRequestPage(deps.db, actorOf(req), query)
        : await listSupportRequests(deps.db, actorOf(req), query),
    );
  });

  router.post(
    '/support/:id/status',
    validate(SupportStatusUpdate),
    audited(deps, 'support.status', 'support', 'id'),
    async (req, res) => {
      const { id } = SupportIdParams.parse(req.params);
      res.json(await updateSupportStatus(deps.db, actorOf(req), id, inputOf(req, SupportStatusUpdate)));
    },
  );

  router.get('/support/:id/screenshot', validate(NoQuery, 'query'), async (req, res) => {
    const { id } = SupportIdParams.parse(req.params);
    const object = await openSupportScreenshot({ db: deps.db, storage: storageOf(deps) }, actorOf(req), id);
    res.set({
      'Content-Type': 'image/webp',
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      ...(object.size !== null ? { 'Content-Length': String(object.size) } : {}),
    });
    try {
      await pipeline(object.body, res);
    } catch {
      object.body.destroy();
      if (!res.writableEnded) res.destroy();
    }
  });

  return router;
}
