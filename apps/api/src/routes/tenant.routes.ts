import { Router } from 'express';
import { CustomBrandingRequest } from '@helix/shared/schemas/tenant';
import type { ServerDeps } from '@helix/server/deps';
import { findBranding, tenantBranding } from '@helix/server/tenants/branding.query';
import { actorOf } from '../http/auth.ts';
import { routeLimiter } from '../http/rate-limit.ts';
import { inputOf, NoQuery, validate } from '../http/validate.ts';

/** White-label pages look up their branding before anyone logs in (base call, no auth). */
export function tenantRoutes(deps: ServerDeps): Router {
  const router = Router();
  const limit = routeLimiter(deps, 'custom-branding-detail', {
    limit: deps.config.BRANDING_RATE_LIMIT_MAX,
    windowSeconds: deps.config.BRANDING_RATE_LIMIT_WINDOW_SECONDS,
  });
  router.post('/tenant/custom-branding-detail', limit, validate(CustomBrandingRequest), async (req, res) => {
    res.json(await findBranding(deps.db, inputOf(req, CustomBrandingRequest)));
  });
  return router;
}

/** The caller's own tenant branding. */
export function tenantScopedRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });
  router.get('/tenant/get', validate(NoQuery, 'query'), async (req, res) => {
    res.json(await tenantBranding(deps.db, actorOf(req).tenant.id));
  });
  return router;
}
