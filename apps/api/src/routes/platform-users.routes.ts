import { Router } from 'express';
import { AddUserRequest } from '@helix/shared/schemas/platform-user';
import type { ServerDeps } from '@helix/server/deps';
import { isPlatformAdmin } from '@helix/server/models/model.policy';
import { addUser } from '@helix/server/platform-users/add-user.command';
import { listPlatformUsers } from '@helix/server/platform-users/list-platform-users.query';
import { audited } from '../http/audited.ts';
import { actorOf } from '../http/auth.ts';
import { inputOf, NoQuery, validate } from '../http/validate.ts';

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
  router.get('/user/all', validate(NoQuery, 'query'), async (req, res) => {
    res.json(await listPlatformUsers(deps.db, actorOf(req)));
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
