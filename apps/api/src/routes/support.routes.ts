import type { Router } from 'express';
import { z } from 'zod';
import { MSG } from '@helix/shared';
import {
  SupportIdParams,
  SupportListQuery,
  SupportRequestCreate,
  SupportRequestCreated,
  SupportRequestList,
  SupportRequestPage,
  SupportRequestView,
  SupportStatusUpdate,
} from '@helix/shared/schemas/support';
import { SUPPORT_RATE_LIMIT } from '@helix/shared/support';
import type { ServerDeps } from '@helix/server/deps';
import { storageOf } from '@helix/server/storage/create-storage';
import { createSupportRequest } from '@helix/server/support/create-support-request.command';
import { listSupportRequests, supportRequestPage } from '@helix/server/support/list-support-requests.query';
import { openSupportScreenshot } from '@helix/server/support/support-screenshot.query';
import { updateSupportStatus } from '@helix/server/support/update-support-status.command';
import { pipeline } from 'node:stream/promises';
import { audited } from '../http/audited.ts';
import { actorOf } from '../http/auth.ts';
import { imageUploadLimiter } from '../http/image-upload-limit.ts';
import { rateLimiter } from '../http/rate-limit.ts';
import { upload, uploadedFiles } from '../http/upload.ts';
import { pageOrList } from '../http/paged.ts';
import { inputOf, NoQuery } from '../http/validate.ts';
import { defineRoute, routerOf, TENANT } from './define-route.ts';

const MB = 1024 * 1024;

/**
 * Fast-track support (issue 10), tenant calls (/api/t/:tenant, after auth and the tenant check):
 * POST /support for every signed-in user (limited per user); the list, status changes and
 * screenshots for platform admins (the support policy decides).
 */
const routes = [
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/support',
    tag: 'Support',
    summary: 'Ask for support (with an optional screenshot)',
    description: 'Limited per user.',
    body: SupportRequestCreate,
    bodyType: 'multipart',
    uploads: true,
    ok: { status: 201, schema: SupportRequestCreated },
    before: () => [
      upload({
        files: [{ name: 'screenshot', maxBytes: 5 * MB, tooLarge: MSG.fileOver5mb, tooLargeStatus: 400 }],
        maxFieldBytes: 7_000_000,
        maxFields: 6,
      }),
    ],
    // Counted per user (any address), after validation: a mistyped form does not use up the quota.
    after: (deps) => [
      rateLimiter({
        redis: deps.redis,
        prefix: deps.config.REDIS_PREFIX,
        logger: deps.logger,
        name: 'support-request',
        ...SUPPORT_RATE_LIMIT,
        key: (req) => (req.actor ? `user-${req.actor.user.id}` : null),
        message: MSG.supportTooMany,
      }),
      imageUploadLimiter(deps, ['screenshot']),
    ],
    handler: (deps) => async (req, res) => {
      const file = uploadedFiles(req).screenshot;
      res
        .status(201)
        .json(await createSupportRequest(deps, actorOf(req), inputOf(req, SupportRequestCreate), file));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/support',
    tag: 'Support',
    summary: 'Support requests (one page with page/pageSize, else all)',
    permission: 'Sidebar.listing.view',
    who: 'platform admins',
    query: SupportListQuery,
    ok: { schema: z.union([SupportRequestPage, SupportRequestList]) },
    handler: pageOrList(SupportListQuery, supportRequestPage, listSupportRequests, { cache: 'no-store' }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/support/:id/status',
    tag: 'Support',
    summary: "Set a support request's status",
    permission: 'Sidebar.listing.view',
    who: 'platform admins',
    params: SupportIdParams,
    // The body is validated onto req.input; the id is read by the handler.
    describeOnly: ['params'],
    body: SupportStatusUpdate,
    ok: SupportRequestView,
    after: (deps) => [audited(deps, 'support.status', 'support', 'id')],
    handler: (deps) => async (req, res) => {
      const { id } = SupportIdParams.parse(req.params);
      res.json(await updateSupportStatus(deps.db, actorOf(req), id, inputOf(req, SupportStatusUpdate)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/support/:id/screenshot',
    tag: 'Support',
    summary: "A support request's screenshot",
    permission: 'Sidebar.listing.view',
    who: 'platform admins',
    params: SupportIdParams,
    describeOnly: ['params'],
    query: NoQuery,
    ok: { type: 'image/webp', description: 'The screenshot.' },
    handler: (deps) => async (req, res) => {
      const { id } = SupportIdParams.parse(req.params);
      const object = await openSupportScreenshot({ db: deps.db, storage: storageOf(deps) }, actorOf(req), id);
      res.set({
        'Content-Type': 'image/webp',
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
        ...(object.size !== null ? { 'Content-Length': String(object.size) } : {}),
      });
      try {
        await pipeline(object.body, res);
      } catch {
        object.body.destroy();
        if (!res.writableEnded) res.destroy();
      }
    },
  }),
];

export const supportRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, routes);
