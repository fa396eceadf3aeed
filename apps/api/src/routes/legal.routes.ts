import { Router } from 'express';
import type { ServerDeps } from '@helix/server/deps';
import { legalPage } from '@helix/server/legal/legal-pages';

/**
 * /terms and /privacy (not under /api: the links in forms and e-mails are the portal's own addresses).
 * With TERMS_URL / PRIVACY_URL set they redirect there; unset, they are the plain default pages.
 */
export function legalRoutes(deps: Pick<ServerDeps, 'config'>): Router {
  const router = Router();
  const serve = (kind: 'terms' | 'privacy', target: string | undefined) =>
    router.get(`/${kind}`, (_req, res) => {
      if (target) return res.redirect(302, target);
      res.type('html').set('Cache-Control', 'public, max-age=3600').send(legalPage(kind));
    });
  serve('terms', deps.config.TERMS_URL);
  serve('privacy', deps.config.PRIVACY_URL);
  return router;
}
