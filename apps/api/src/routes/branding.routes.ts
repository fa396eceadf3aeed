import type { RequestHandler, Router } from 'express';
import { MSG } from '@helix/shared';
import { BrandingUpdate } from '@helix/shared/schemas/branding';
import { BrandingView, CustomBrandingRequest, TenantBrandingView } from '@helix/shared/schemas/tenant';
import type { ServerDeps } from '@helix/server/deps';
import { tenantBranding } from '@helix/server/tenants/branding.query';
import { authorizeBranding } from '@helix/server/tenants/branding.policy';
import { customBrandingDetail } from '@helix/server/tenants/custom-branding-detail.query';
import { updateBranding } from '@helix/server/tenants/update-branding.command';
import { audited } from '../http/audited.ts';
import { actorOf } from '../http/auth.ts';
import { idempotent } from '../http/idempotency.ts';
import { ifMatch } from '../http/if-match.ts';
import { imageUploadLimiter } from '../http/image-upload-limit.ts';
import { routeLimiter } from '../http/rate-limit.ts';
import { upload, uploadedFiles } from '../http/upload.ts';
import { inputOf, NoQuery } from '../http/validate.ts';
import { noContent } from '../openapi/describe.ts';
import { API, defineRoute, routerOf, TENANT } from './define-route.ts';

const MB = 1024 * 1024;

/** White-label pages look up their branding before anyone logs in (base call, no auth). */
const customBranding = defineRoute({
  method: 'post',
  path: '/api/tenant/custom-branding-detail',
  tag: 'Branding',
  summary: "A white-label page's branding, before login",
  description: "By domain or brand name; a lookup by the request's host without a white label answers 204.",
  body: CustomBrandingRequest,
  limited: true,
  errors: [404],
  ok: [BrandingView, noContent('No white label for this host.')],
  before: (deps) => [
    routeLimiter(deps, 'custom-branding-detail', {
      limit: deps.config.BRANDING_RATE_LIMIT_MAX,
      windowSeconds: deps.config.BRANDING_RATE_LIMIT_WINDOW_SECONDS,
    }),
  ],
  handler: (deps) => async (req, res) => {
    const view = await customBrandingDetail(deps, inputOf(req, CustomBrandingRequest), req.hostname);
    // A host lookup on a host without a white label: nothing to show, not an error.
    if (!view) res.status(204).end();
    else res.json(view);
  },
});

export const brandingRoutes = (deps: ServerDeps): Router => routerOf(deps, API, [customBranding]);

/** The branding policy before the upload is read: a refused caller's images are never buffered. */
const mayUpdateBranding: RequestHandler = (req, _res, next) => {
  authorizeBranding(actorOf(req), 'update');
  next();
};

/** The caller's own tenant branding (/api/t/:tenant, after auth and the tenant check). */
const tenantRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/tenant/get',
    tag: 'Branding',
    summary: "The tenant's branding",
    query: NoQuery,
    ok: TenantBrandingView,
    handler: (deps) => async (req, res) => {
      res.json(await tenantBranding(deps.db, actorOf(req)));
    },
  }),
  // An outbox call (Idempotency-Key, If-Match: the branding's version); it changes the tenant row.
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/tenant/update',
    tag: 'Branding',
    summary: "Update the tenant's branding (logos, colours, brand name, domain)",
    permission: 'Brand.update',
    who: 'customer tenants only',
    body: BrandingUpdate,
    bodyType: 'multipart',
    uploads: true,
    outbox: {},
    errors: [409],
    ok: TenantBrandingView,
    before: (deps) => [
      mayUpdateBranding,
      upload({
        files: [
          { name: 'brandLogo', maxBytes: MB, tooLarge: MSG.fileOver1mb, tooLargeStatus: 400 },
          { name: 'modelLoadingLogo', maxBytes: MB, tooLarge: MSG.fileOver1mb, tooLargeStatus: 400 },
          { name: 'modelBgLogo', maxBytes: 5 * MB, tooLarge: MSG.fileOver5mb, tooLargeStatus: 400 },
        ],
        maxFieldBytes: 7_000_000,
        maxFields: 16,
      }),
      idempotent(deps, { locksTenant: true }),
      imageUploadLimiter(deps, ['brandLogo', 'modelLoadingLogo', 'modelBgLogo']),
    ],
    after: (deps) => [audited(deps, 'branding.update', 'branding')],
    handler: (deps) => async (req, res) => {
      const files = uploadedFiles(req);
      res.json(
        await updateBranding(
          deps,
          actorOf(req),
          inputOf(req, BrandingUpdate),
          {
            brandLogo: files.brandLogo,
            modelLoadingLogo: files.modelLoadingLogo,
            modelBgLogo: files.modelBgLogo,
          },
          ifMatch(req),
        ),
      );
    },
  }),
];

export const brandingTenantRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, tenantRoutes);
