import { Router, type RequestHandler } from 'express';
import { MSG } from '@helix/shared';
import { BrandingUpdate } from '@helix/shared/schemas/branding';
import { CustomBrandingRequest } from '@helix/shared/schemas/tenant';
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
import { inputOf, NoQuery, validate } from '../http/validate.ts';

const MB = 1024 * 1024;

/** White-label pages look up their branding before anyone logs in (base call, no auth). */
export function brandingRoutes(deps: ServerDeps): Router {
  const router = Router();
  const limit = routeLimiter(deps, 'custom-branding-detail', {
    limit: deps.config.BRANDING_RATE_LIMIT_MAX,
    windowSeconds: deps.config.BRANDING_RATE_LIMIT_WINDOW_SECONDS,
  });
  router.post('/tenant/custom-branding-detail', limit, validate(CustomBrandingRequest), async (req, res) => {
    const view = await customBrandingDetail(deps, inputOf(req, CustomBrandingRequest), req.hostname);
    // A host lookup on a host without a white label: nothing to show, not an error.
    if (!view) res.status(204).end();
    else res.json(view);
  });
  return router;
}

/** The branding policy before the upload is read: a refused caller's images are never buffered. */
const mayUpdateBranding: RequestHandler = (req, _res, next) => {
  authorizeBranding(actorOf(req), 'update');
  next();
};

/** The caller's own tenant branding (/api/t/:tenant, after auth and the tenant check). */
export function brandingTenantRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });
  const images = upload({
    files: [
      { name: 'brandLogo', maxBytes: MB, tooLarge: MSG.fileOver1mb, tooLargeStatus: 400 },
      { name: 'modelLoadingLogo', maxBytes: MB, tooLarge: MSG.fileOver1mb, tooLargeStatus: 400 },
      { name: 'modelBgLogo', maxBytes: 5 * MB, tooLarge: MSG.fileOver5mb, tooLargeStatus: 400 },
    ],
    maxFieldBytes: 7_000_000,
    maxFields: 16,
  });

  router.get('/tenant/get', validate(NoQuery, 'query'), async (req, res) => {
    res.json(await tenantBranding(deps.db, actorOf(req)));
  });

  // An outbox call (Idempotency-Key, If-Match: the branding's version); it changes the tenant row.
  const once = idempotent(deps, { locksTenant: true });
  router.post(
    '/tenant/update',
    mayUpdateBranding,
    images,
    once,
    imageUploadLimiter(deps, ['brandLogo', 'modelLoadingLogo', 'modelBgLogo']),
    validate(BrandingUpdate),
    audited(deps, 'branding.update', 'branding'),
    async (req, res) => {
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
  );
  return router;
}
