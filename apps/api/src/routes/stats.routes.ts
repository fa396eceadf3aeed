import type { Router } from 'express';
import { UserStatsPage, UserStatsQuery } from '@helix/shared/schemas/list-query';
import type { ServerDeps } from '@helix/server/deps';
import { userStatsPage } from '@helix/server/stats/user-stats.query';
import { actorOf } from '../http/auth.ts';
import { inputOf } from '../http/validate.ts';
import { defineRoute, routerOf, TENANT } from './define-route.ts';

/** The statistics pages' top-N tables (tenant calls, docs/lists-at-scale.md). */
const userStats = defineRoute({
  method: 'get',
  path: '/api/t/:tenant/stats/users',
  tag: 'Users',
  summary: "Users' views, one page",
  can: 'User.listing.view',
  who: "statistics readers: a platform admin, the school's owner or the Admin role",
  query: UserStatsQuery,
  ok: UserStatsPage,
  handler: (deps) => async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json(await userStatsPage(deps.db, actorOf(req), inputOf(req, UserStatsQuery)));
  },
});

export const statsRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, [userStats]);
