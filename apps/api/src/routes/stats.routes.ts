import { Router } from 'express';
import { UserStatsQuery } from '@helix/shared/schemas/list-query';
import type { ServerDeps } from '@helix/server/deps';
import { userStatsPage } from '@helix/server/stats/user-stats.query';
import { actorOf, can } from '../http/auth.ts';
import { inputOf, validate } from '../http/validate.ts';

/** The statistics pages' top-N tables (tenant calls, docs/lists-at-scale.md). */
export function statsRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });
  router.get(
    '/stats/users',
    can('User.listing.view'),
    validate(UserStatsQuery, 'query'),
    async (req, res) => {
      res.set('Cache-Control', 'no-store');
      res.json(await userStatsPage(deps.db, actorOf(req), inputOf(req, UserStatsQuery)));
    },
  );
  return router;
}
