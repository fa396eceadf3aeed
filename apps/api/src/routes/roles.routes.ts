import { Router } from 'express';
import { AssignRoles, RoleDelete, RoleIdRequest, RoleSave } from '@helix/shared/schemas/role';
import type { ServerDeps } from '@helix/server/deps';
import { assignRoles } from '@helix/server/roles/assign-roles.command';
import { deleteRole } from '@helix/server/roles/delete-role.command';
import { listPermissions, listRoles, rolePermissions } from '@helix/server/roles/list-roles.query';
import { saveRole } from '@helix/server/roles/save-role.command';
import { audited } from '../http/audited.ts';
import { actorOf } from '../http/auth.ts';
import { idempotent } from '../http/idempotency.ts';
import { ifMatch } from '../http/if-match.ts';
import { inputOf, NoQuery, validate } from '../http/validate.ts';

/**
 * Roles, permissions and role assignment: tenant calls of platform admins (/api/t/services). The role
 * policy (packages/server/src/roles/role.policy.ts) checks admin status and the permission per action.
 */
export function roleRoutes(deps: ServerDeps): Router {
  const { db } = deps;
  const router = Router({ mergeParams: true });
  // Outbox calls (Idempotency-Key, If-Match): role create/edit/delete and role assignment.
  const once = idempotent(deps);

  router.get('/role/all', validate(NoQuery, 'query'), async (req, res) => {
    res.json(await listRoles(db, actorOf(req)));
  });

  router.post(
    '/role/create',
    once,
    validate(RoleSave),
    audited(deps, 'role.update', 'role', 'id'),
    async (req, res) => {
      const input = inputOf(req, RoleSave);
      res.status(input.id === 0 ? 201 : 200).json(await saveRole(db, actorOf(req), input, ifMatch(req)));
    },
  );

  router.post(
    '/role/delete',
    once,
    validate(RoleDelete),
    audited(deps, 'role.delete', 'role', 'id'),
    async (req, res) => {
      res.json(await deleteRole(db, actorOf(req), inputOf(req, RoleDelete).id, ifMatch(req)));
    },
  );

  router.post('/role/permissions', validate(RoleIdRequest), async (req, res) => {
    res.json(await rolePermissions(db, actorOf(req), inputOf(req, RoleIdRequest).id));
  });

  router.get('/permission/all', validate(NoQuery, 'query'), async (req, res) => {
    res.json(await listPermissions(db, actorOf(req)));
  });

  router.post(
    '/user/assignRoles',
    once,
    validate(AssignRoles),
    audited(deps, 'role.assign', 'user', 'id'),
    async (req, res) => {
      res.json(await assignRoles(db, actorOf(req), inputOf(req, AssignRoles), ifMatch(req)));
    },
  );

  return router;
}
