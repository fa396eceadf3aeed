import { Router } from 'express';
import { AddUserRequest, PlatformUsersQuery } from '@helix/shared/schemas/platform-user';
import type { ServerDeps } from '@helix/server/deps';
import { isPlatformAdmin } from '@helix/server/models/model.policy';
import { addUser } from '@helix/server/platform-users/add-user.command';
import { listPlatformUsers, pagePlatformUsers } from '@helix/server/platform-users/list-platform-users.query';
import { audited } from '../http/audited.ts';
import { actorOf } from '../http/auth.ts';
import { wantsPage } from '../http/paged.ts';
import { inputOf, validate } from '../http/validate.ts';

/**
 * The platform admin's users (/users, /permissions) and add-user (/users/add-user): tenant calls.
 * GET /user/all answers every user for a platform admin; for anyone else the tenant's own users list
 * (users.routes.ts) answers it, so this router steps aside.
 */
export function platformUserRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });

  router.get('/user/all', (req, _res, next) => {
    next(isPlatformAdmin(actorOf(req)) ? undefined : 'router');
  });
  // With page or pageSize: one page (/users, /permissions); without: every matching user.
  router.get('/user/all', validate(PlatformUsersQuery, 'query'), async (req, res) => {
    const query = inputOf(req, PlatformUsersQuery);
    res.json(
      wantsPage(req)
        ? await pagePlatformUsers(deps.db, actorOf(req), query)
        : await listPlatformUsers(deps.db, actorOf(req), query),
    );
  });

  router.post(
    '/user/add-user',
    validate(AddUserRequest),
    audited(deps, 'user.add', 'user', 'email', { atAnswer: true }),
    async (req, res) => {
      res.status(201).json(await addUser(deps, actorOf(req), inputOf(req, AddUserRequest)));
    },
  );

  return router;
}
