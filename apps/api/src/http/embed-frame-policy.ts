import type { RequestHandler, Response } from 'express';
import { frameAncestorSources, hostMatches, hostOf } from '@helix/shared';
import type { ServerDeps } from '@helix/server/deps';
import { embedAccess } from '@helix/server/models/embed-access';
import { EMBEDDABLE } from './security.ts';

/**
 * The `frame-ancestors` of a share or embed page (docs/links.md, "Where a link may be shown"), read
 * by securityHeaders (security.ts, frameAncestorsOf) from `res.locals.frameAncestors`; unset: any site.
 *
 * For a link limited to some sites they are the link's sites, so the browser itself refuses to show
 * the page anywhere else. One exception, so the visitor learns why instead of seeing the browser's
 * blank refusal: when the frame's request names the page it is on (its Referer) and that page is on
 * another site, the page is let into that one page: it then asks for the link's detail, which the
 * server refuses for that site (embed-host.policy.ts), and shows the "not available on this site"
 * panel; no viewer is started and nothing is counted. A page the server cannot place (no Referer) gets
 * the strict list.
 *
 * Reads the same cached record as the embed detail (embed-access.ts), so an allowlist change holds
 * within EMBED_ACCESS_CACHE_MS. If the lookup fails the page goes without a list: it cannot show a model
 * then anyway (its detail call fails the same way).
 */
export function embedFramePolicy(deps: Pick<ServerDeps, 'db' | 'config' | 'logger'>): RequestHandler {
  const portalHost = new URL(deps.config.PUBLIC_URL).hostname;
  return async (req, res, next) => {
    const match = req.method === 'GET' || req.method === 'HEAD' ? EMBEDDABLE.exec(req.path) : null;
    if (!match) {
      next();
      return;
    }
    try {
      const token = req.path.split('/')[2] ?? '';
      const access = await embedAccess(deps, token);
      // The page's own handler reads the same answer (public-link-page.ts): one lookup per page load.
      res.locals.embedAccess = { token, access };
      if (access.ok && access.embed.allowedHosts.length > 0) {
        const { allowedHosts, tenant } = access.embed;
        const referrer = req.get('referer');
        const host = referrer ? hostOf(referrer) : null;
        const elsewhere =
          host !== null &&
          host !== portalHost &&
          host !== tenant.customDomainName?.toLowerCase() &&
          !hostMatches(host, allowedHosts);
        setFrameAncestors(res, elsewhere ? [new URL(referrer!).origin] : frameAncestorSources(allowedHosts));
      }
    } catch (err) {
      deps.logger.warn({ err }, 'embed frame policy: link lookup failed');
    }
    next();
  };
}

const setFrameAncestors = (res: Response, sources: string[]) => {
  res.locals.frameAncestors = sources;
  // The answer depends on which page asked (Referer): caches keep one per page.
  res.vary('Referer');
};
