import { Router } from 'express';
import { MSG } from '@helix/shared';
import { OfflineCopyRequest, OfflineViewRequest } from '@helix/shared/schemas/pinned-model';
import type { ServerDeps } from '@helix/server/deps';
import { issueOfflineCopy } from '@helix/server/pinned/issue-offline-copy.command';
import { recordOfflineView } from '@helix/server/pinned/record-offline-view.command';
import { actorOf, can } from '../http/auth.ts';
import { rateLimiter } from '../http/rate-limit.ts';
import { inputOf, validate } from '../http/validate.ts';

/**
 * Models pinned for offline use (tenant calls): the copy a device keeps, and the views it made offline.
 * Both need Model.view, like opening the viewer online.
 */
export function pinnedModelTenantRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });
  // Counted per user (any device, any address), every call, before validation: a script sending
  // invented views is slowed down as much as one sending well-formed ones.
  const offlineViewLimit = rateLimiter({
    redis: deps.redis,
    prefix: deps.config.REDIS_PREFIX,
    logger: deps.logger,
    name: 'offline-view',
    limit: deps.config.OFFLINE_VIEW_RATE_LIMIT_MAX,
    windowSeconds: deps.config.OFFLINE_VIEW_RATE_LIMIT_WINDOW_SECONDS,
    key: (req) => (req.actor ? `user-${req.actor.user.id}` : null),
    message: MSG.offlineViewsTooMany,
  });

  router.post('/model/offline-copy', can('Model.view'), validate(OfflineCopyRequest), async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json(await issueOfflineCopy(deps, actorOf(req), inputOf(req, OfflineCopyRequest)));
  });

  router.post(
    '/model/offline-view',
    can('Model.view'),
    offlineViewLimit,
    validate(OfflineViewRequest),
    async (req, res) => {
      res.json(await recordOfflineView(deps, actorOf(req), inputOf(req, OfflineViewRequest)));
    },
  );

  return router;
}
