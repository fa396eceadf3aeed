import { Router } from 'express';
import {
  BatchIdParams,
  BulkInviteRequest,
  InviteRequest,
  ResendInviteRequest,
} from '@helix/shared/schemas/invite';
import { DeleteUserRequest, TenantUsersQuery, UserDetailRequest } from '@helix/shared/schemas/tenant-user';
import type { ServerDeps } from '@helix/server/deps';
import { bulkInviteBatch } from '@helix/server/invites/bulk-invite-batch.query';
import { bulkInvite } from '@helix/server/invites/bulk-invite.command';
import { inviteUser } from '@helix/server/invites/invite-user.command';
import { resendInvite } from '@helix/server/invites/resend-invite.command';
import { deleteUser } from '@helix/server/users/delete-user.command';
import { listTenantUsers, pageTenantUsers } from '@helix/server/users/list-users.query';
import { userDetail } from '@helix/server/users/user-detail.query';
import { actorOf, can } from '../http/auth.ts';
import { audited } from '../http/audited.ts';
import { idempotent } from '../http/idempotency.ts';
import { jsonBody } from '../http/json-body.ts';
import { wantsPage } from '../http/paged.ts';
import { inputOf, validate } from '../http/validate.ts';

/**
 * The one route whose body may be larger than JSON_BODY_LIMIT: 10,000 rows of name, e-mail and note.
 * Mounted before the general JSON parser (which then leaves the parsed body alone).
 */
export const BULK_INVITE_BODY_LIMIT = '12mb';
export const bulkInviteBodyParser = jsonBody({ limit: BULK_INVITE_BODY_LIMIT });
export const BULK_INVITE_PATH = '/api/t/:tenant/user/bulk-invite';

/**
 * Users of a tenant, invitations and bulk invites: tenant calls (/api/t/:tenant, after auth and the
 * tenant check). `can()` is the coarse gate; the user and invite policies decide in the commands.
 */
export function usersRoutes(deps: ServerDeps): Router {
  const { db } = deps;
  const router = Router({ mergeParams: true });

  // A platform admin's GET /user/all is answered by the platform users list (platform-users.routes.ts).
  // With page or pageSize: one page; without: every matching user (the export, the bulk invite).
  router.get('/user/all', can('User.listing.view'), validate(TenantUsersQuery, 'query'), async (req, res) => {
    const query = inputOf(req, TenantUsersQuery);
    res.json(
      wantsPage(req)
        ? await pageTenantUsers(db, actorOf(req), query)
        : await listTenantUsers(db, actorOf(req), query),
    );
  });

  router.post('/user/detail', can('User.detail.view'), validate(UserDetailRequest), async (req, res) => {
    res.json(await userDetail(db, actorOf(req), inputOf(req, UserDetailRequest).id));
  });

  router.post('/user/delete', audited(deps, 'user.delete', 'user', 'id'));
  router.post('/user/delete', can('User.delete'), validate(DeleteUserRequest), async (req, res) => {
    res.json(await deleteUser(db, actorOf(req), inputOf(req, DeleteUserRequest)));
  });

  // An outbox call (Idempotency-Key): a single invite queued offline is sent once.
  router.post('/user/invite', audited(deps, 'user.invite', 'invite', 'email'));
  router.post(
    '/user/invite',
    can('User.invite'),
    idempotent(deps),
    validate(InviteRequest),
    async (req, res) => {
      res.status(201).json(await inviteUser(deps, actorOf(req), inputOf(req, InviteRequest)));
    },
  );

  router.post('/user/resend-invite', audited(deps, 'user.invite-resend', 'invite', 'id'));
  router.post('/user/resend-invite', can('User.invite'), validate(ResendInviteRequest), async (req, res) => {
    res.json(await resendInvite(deps, actorOf(req), inputOf(req, ResendInviteRequest)));
  });

  router.post('/user/bulk-invite', audited(deps, 'user.bulk-invite', 'invites'));
  router.post('/user/bulk-invite', can('User.invite'), validate(BulkInviteRequest), async (req, res) => {
    res.status(202).json(await bulkInvite(deps, actorOf(req), inputOf(req, BulkInviteRequest)));
  });

  router.get(
    '/user/bulk-invite/:id',
    can('User.invite'),
    validate(BatchIdParams, 'params'),
    async (req, res) => {
      res.json(await bulkInviteBatch(db, actorOf(req), inputOf(req, BatchIdParams).id));
    },
  );

  return router;
}
