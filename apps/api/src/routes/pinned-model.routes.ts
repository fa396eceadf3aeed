import { Router } from 'express';
import { ModelIdRequest } from '@helix/shared/schemas/model';
import { OfflineViewRequest } from '@helix/shared/schemas/pinned-model';
import type { ServerDeps } from '@helix/server/deps';
import { offlineCopy } from '@helix/server/pinned/offline-copy.query';
import { recordOfflineView } from '@helix/server/pinned/record-offline-view.command';
import { actorOf, can } from '../http/auth.ts';
import { inputOf, validate } from '../http/validate.ts';

/**
 * Models pinned for offline use (tenant calls): the copy a device keeps, and the views it made offline.
 * Both need Model.view, like opening the viewer online.
 */
export function pinnedModelTenantRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });

  router.post('/model/offline-copy', can('Model.view'), validate(ModelIdRequest), async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json(await offlineCopy(deps, actorOf(req), inputOf(req, ModelIdRequest).id));
  });

  router.post('/model/offline-view', can('Model.view'), validate(OfflineViewRequest), async (req, res) => {
    res.json(await recordOfflineView(deps, actorOf(req), inputOf(req, OfflineViewRequest)));
  });

  return router;
}
