import { Router } from 'express';
import { AddUserRequest, AddUserResponse, PlatformUsersQuery } from '@helix/shared/schemas/platform-user';
import type { ServerDeps } from '@helix/server/deps';
import { isPlatformAdmin } from '@helix/server/models/model.policy';
import { addUser } from '@helix/server/platform-users/add-user.command';
import { listPlatformUsers, pagePlatformUsers } from '@helix/server/platform-users/list-platform-users.query';
import { audited } from '../http/audited.ts';
import { actorOf } from '../http/auth.ts';
import { wantsPage } from '../http/paged.ts';
import { inputOf, validate } from '../http/validate.ts';
import { defineRoute, mountRoutes, TENANT } from './define-route.ts';

const addUserRoute = defineRoute({
  method: 'post',
  path: '/api/t/:tenant/user/add-user',
  tag: 'Users',
  summary: 'Add a customer (a new tenant and its owner)',
  permission: 'User.invite',
  who: 'platform admins',
  body: AddUserRequest,
  errors: [409],
  ok: { status: 201, schema: AddUserResponse },
  after: (deps) => [audited(deps, 'user.add', 'user', 'email', { atAnswer: true })],
  handler: (deps) => async (req, res) => {
    res.status(201).json(await addUser(deps, actorOf(req), inputOf(req, AddUserRequest)));
  },
});

/**
 * The platform admin's users (/users, /permissions) and add-user (/users/add-user): tenant calls.
 * GET /user/all answers every user for a platform admin; for anyone else the tenant's own users list
 * (users.routes.ts, which declares the route for both) answers it, so this router steps aside.
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

  return mountRoutes(router, deps, TENANT, [addUserRoute]);
}
