import type { Router } from 'express';
import { MSG } from '@helix/shared';
import {
  OfflineCopy,
  OfflineCopyRequest,
  OfflineViewAnswer,
  OfflineViewRequest,
} from '@helix/shared/schemas/pinned-model';
import type { ServerDeps } from '@helix/server/deps';
import { issueOfflineCopy } from '@helix/server/pinned/issue-offline-copy.command';
import { recordOfflineView } from '@helix/server/pinned/record-offline-view.command';
import { actorOf } from '../http/auth.ts';
import { rateLimiter } from '../http/rate-limit.ts';
import { inputOf } from '../http/validate.ts';
import { defineRoute, routerOf, TENANT } from './define-route.ts';

/**
 * Models pinned for offline use (tenant calls): the copy a device keeps, and the views it made offline.
 * Both need Model.view, like opening the viewer online.
 */
const routes = [
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/model/offline-copy',
    tag: 'Models',
    summary: 'Pin a model for offline use',
    can: 'Model.view',
    body: OfflineCopyRequest,
    errors: [409],
    ok: OfflineCopy,
    handler: (deps) => async (req, res) => {
      res.set('Cache-Control', 'no-store');
      res.json(await issueOfflineCopy(deps, actorOf(req), inputOf(req, OfflineCopyRequest)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/model/offline-view',
    tag: 'Models',
    summary: 'Record a view made offline',
    can: 'Model.view',
    body: OfflineViewRequest,
    limited: true,
    errors: [409, 422],
    ok: OfflineViewAnswer,
    // Counted per user (any device, any address), every call, before validation: a script sending
    // invented views is slowed down as much as one sending well-formed ones.
    before: (deps) => [
      rateLimiter({
        redis: deps.redis,
        prefix: deps.config.REDIS_PREFIX,
        logger: deps.logger,
        name: 'offline-view',
        limit: deps.config.OFFLINE_VIEW_RATE_LIMIT_MAX,
        windowSeconds: deps.config.OFFLINE_VIEW_RATE_LIMIT_WINDOW_SECONDS,
        key: (req) => (req.actor ? `user-${req.actor.user.id}` : null),
        message: MSG.offlineViewsTooMany,
      }),
    ],
    handler: (deps) => async (req, res) => {
      res.json(await recordOfflineView(deps, actorOf(req), inputOf(req, OfflineViewRequest)));
    },
  }),
];

export const pinnedModelTenantRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, routes);
