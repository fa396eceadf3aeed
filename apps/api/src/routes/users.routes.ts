import type { Router } from 'express';
import { z } from 'zod';
import {
  BatchIdParams,
  BulkInviteBatchView,
  BulkInviteRequest,
  BulkInviteStarted,
  InviteRequest,
  MessageAnswer,
  ResendInviteRequest,
} from '@helix/shared/schemas/invite';
import {
  PLATFORM_USERS_SORTS,
  PlatformUserList,
  PlatformUserPage,
} from '@helix/shared/schemas/platform-user';
import { MessageView } from '@helix/shared/schemas/role';
import {
  DeleteUserRequest,
  TENANT_USERS_SORTS,
  TenantUserList,
  TenantUserPage,
  TenantUsersQuery,
  UserDetailRequest,
  UserDetailView,
} from '@helix/shared/schemas/tenant-user';
import type { ServerDeps } from '@helix/server/deps';
import { bulkInviteBatch } from '@helix/server/invites/bulk-invite-batch.query';
import { bulkInvite } from '@helix/server/invites/bulk-invite.command';
import { inviteUser } from '@helix/server/invites/invite-user.command';
import { resendInvite } from '@helix/server/invites/resend-invite.command';
import { deleteUser } from '@helix/server/users/delete-user.command';
import { listTenantUsers, pageTenantUsers } from '@helix/server/users/list-users.query';
import { userDetail } from '@helix/server/users/user-detail.query';
import { actorOf } from '../http/auth.ts';
import { audited } from '../http/audited.ts';
import { idempotent } from '../http/idempotency.ts';
import { jsonBody } from '../http/json-body.ts';
import { pageOrList } from '../http/paged.ts';
import { inputOf, validate } from '../http/validate.ts';
import { defineRoute, routerOf, TENANT } from './define-route.ts';

/**
 * The one route whose body may be larger than JSON_BODY_LIMIT: 10,000 rows of name, e-mail and note.
 * Mounted before the general JSON parser (which then leaves the parsed body alone).
 */
const BULK_INVITE_BODY_LIMIT = '12mb';
export const bulkInviteBodyParser = jsonBody({ limit: BULK_INVITE_BODY_LIMIT });
export const BULK_INVITE_PATH = '/api/t/:tenant/user/bulk-invite' as const;

/**
 * Users of a tenant, invitations and bulk invites: tenant calls (/api/t/:tenant, after auth and the
 * tenant check). `can()` is the coarse gate; the user and invite policies decide in the commands.
 */
const routes = [
  // A platform admin's GET /user/all is answered by the platform users list (platform-users.routes.ts).
  // With page or pageSize: one page; without: every matching user (the export, the bulk invite).
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/user/all',
    tag: 'Users',
    summary: "The tenant's users (platform admins: every user); one page with page/pageSize, else all",
    can: 'User.listing.view',
    who: 'platform admins see every user (User.listing.view or Permission.listing.view)',
    query: TenantUsersQuery.extend({
      sort: z.enum([...TENANT_USERS_SORTS, ...PLATFORM_USERS_SORTS]).optional(),
    }),
    // Both lists' queries are described; this one validates the tenant's.
    describeOnly: ['query'],
    ok: { schema: z.union([TenantUserPage, TenantUserList, PlatformUserPage, PlatformUserList]) },
    before: () => [validate(TenantUsersQuery, 'query')],
    handler: pageOrList(TenantUsersQuery, pageTenantUsers, listTenantUsers),
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/user/detail',
    tag: 'Users',
    summary: 'One user',
    can: 'User.detail.view',
    body: UserDetailRequest,
    ok: UserDetailView,
    handler: (deps) => async (req, res) => {
      res.json(await userDetail(deps.db, actorOf(req), inputOf(req, UserDetailRequest).id));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/user/delete',
    tag: 'Users',
    summary: 'Remove a user',
    can: 'User.delete',
    body: DeleteUserRequest,
    errors: [409],
    ok: MessageView,
    before: (deps) => [audited(deps, 'user.delete', 'user', 'id')],
    handler: (deps) => async (req, res) => {
      res.json(await deleteUser(deps.db, actorOf(req), inputOf(req, DeleteUserRequest)));
    },
  }),
  // An outbox call (Idempotency-Key): a single invite queued offline is sent once.
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/user/invite',
    tag: 'Users',
    summary: 'Invite one user by e-mail',
    can: 'User.invite',
    who: 'not platform admins',
    body: InviteRequest,
    outbox: { ifMatch: false },
    errors: [409],
    ok: { status: 201, schema: MessageAnswer },
    before: (deps) => [audited(deps, 'user.invite', 'invite', 'email'), idempotent(deps)],
    handler: (deps) => async (req, res) => {
      res.status(201).json(await inviteUser(deps, actorOf(req), inputOf(req, InviteRequest)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/user/resend-invite',
    tag: 'Users',
    summary: 'Send an invitation again',
    can: 'User.invite',
    body: ResendInviteRequest,
    errors: [409],
    ok: MessageAnswer,
    before: (deps) => [audited(deps, 'user.invite-resend', 'invite', 'id')],
    handler: (deps) => async (req, res) => {
      res.json(await resendInvite(deps, actorOf(req), inputOf(req, ResendInviteRequest)));
    },
  }),
  // Its large body is read by bulkInviteBodyParser (app.ts), before the general JSON parser.
  defineRoute({
    method: 'post',
    path: BULK_INVITE_PATH,
    tag: 'Users',
    summary: 'Invite up to 10,000 users at once (12 MB body)',
    can: 'User.invite',
    body: BulkInviteRequest,
    errors: [409, 422],
    ok: {
      status: 202,
      schema: BulkInviteStarted,
      description: 'Accepted: the batch runs in the background.',
    },
    before: (deps) => [audited(deps, 'user.bulk-invite', 'invites')],
    handler: (deps) => async (req, res) => {
      res.status(202).json(await bulkInvite(deps, actorOf(req), inputOf(req, BulkInviteRequest)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/user/bulk-invite/:id',
    tag: 'Users',
    summary: "A bulk invite's progress",
    can: 'User.invite',
    params: BatchIdParams,
    ok: BulkInviteBatchView,
    handler: (deps) => async (req, res) => {
      res.json(await bulkInviteBatch(deps.db, actorOf(req), inputOf(req, BatchIdParams).id));
    },
  }),
];

export const usersRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, routes);
