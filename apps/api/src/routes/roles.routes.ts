import type { Router } from 'express';
import { z } from 'zod';
import {
  AssignRoles,
  MessageView,
  PermissionView,
  RoleDelete,
  RoleIdRequest,
  RolePermissionsView,
  RoleSave,
  RoleSaved,
  RolesAssigned,
  RoleView,
} from '@helix/shared/schemas/role';
import type { ServerDeps } from '@helix/server/deps';
import { assignRoles } from '@helix/server/roles/assign-roles.command';
import { deleteRole } from '@helix/server/roles/delete-role.command';
import { listPermissions, listRoles, rolePermissions } from '@helix/server/roles/list-roles.query';
import { saveRole } from '@helix/server/roles/save-role.command';
import { audited } from '../http/audited.ts';
import { actorOf } from '../http/auth.ts';
import { idempotent } from '../http/idempotency.ts';
import { ifMatch } from '../http/if-match.ts';
import { inputOf, NoQuery } from '../http/validate.ts';
import { defineRoute, routerOf, TENANT } from './define-route.ts';

/**
 * Roles, permissions and role assignment: tenant calls of platform admins (/api/t/services). The role
 * policy (packages/server/src/roles/role.policy.ts) checks admin status and the permission per action.
 * Create/edit/delete and role assignment are outbox calls (Idempotency-Key, If-Match).
 */
const routes = [
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/role/all',
    tag: 'Roles',
    summary: 'Every role',
    permission: 'Role.listing.view',
    who: 'platform admins',
    query: NoQuery,
    ok: z.array(RoleView),
    handler: (deps) => async (req, res) => {
      res.json(await listRoles(deps.db, actorOf(req)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/role/create',
    tag: 'Roles',
    summary: 'Create (id 0) or update a role',
    permission: ['Role.create', 'Role.update'],
    who: 'platform admins (Role.create to create, Role.update to update)',
    body: RoleSave,
    outbox: {},
    errors: [409],
    ok: [RoleSaved, { status: 201, schema: RoleSaved, description: 'Created.' }],
    before: (deps) => [idempotent(deps)],
    after: (deps) => [audited(deps, 'role.update', 'role', 'id')],
    handler: (deps) => async (req, res) => {
      const input = inputOf(req, RoleSave);
      res.status(input.id === 0 ? 201 : 200).json(await saveRole(deps.db, actorOf(req), input, ifMatch(req)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/role/delete',
    tag: 'Roles',
    summary: 'Delete a role',
    permission: 'Role.delete',
    who: 'platform admins',
    body: RoleDelete,
    outbox: {},
    errors: [409],
    ok: MessageView,
    before: (deps) => [idempotent(deps)],
    after: (deps) => [audited(deps, 'role.delete', 'role', 'id')],
    handler: (deps) => async (req, res) => {
      res.json(await deleteRole(deps.db, actorOf(req), inputOf(req, RoleDelete).id, ifMatch(req)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/role/permissions',
    tag: 'Roles',
    summary: "A role's permissions and the others",
    permission: 'Role.listing.view',
    who: 'platform admins',
    body: RoleIdRequest,
    ok: RolePermissionsView,
    handler: (deps) => async (req, res) => {
      res.json(await rolePermissions(deps.db, actorOf(req), inputOf(req, RoleIdRequest).id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/permission/all',
    tag: 'Roles',
    summary: 'The permission vocabulary',
    permission: 'Permission.listing.view',
    who: 'platform admins',
    query: NoQuery,
    ok: z.array(PermissionView),
    handler: (deps) => async (req, res) => {
      res.json(await listPermissions(deps.db, actorOf(req)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/user/assignRoles',
    tag: 'Roles',
    summary: "Set a user's roles",
    permission: 'Role.assign',
    who: 'platform admins',
    body: AssignRoles,
    outbox: {},
    errors: [409],
    ok: RolesAssigned,
    before: (deps) => [idempotent(deps)],
    after: (deps) => [audited(deps, 'role.assign', 'user', 'id')],
    handler: (deps) => async (req, res) => {
      res.json(await assignRoles(deps.db, actorOf(req), inputOf(req, AssignRoles), ifMatch(req)));
    },
  }),
];

export const roleRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, routes);
