import { MSG } from '@helix/shared';
import type { EmbedLinkView } from '@helix/shared/schemas/embed-link';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { forgetEmbedAccess } from './embed-access.ts';
import { linksVisibleTo } from './embed-link.policy.ts';
import { embedLinkSelect, presentLinks } from './embed-links.query.ts';

/**
 * POST /model/links/hosts: the sites whose pages may show a link (patterns already checked and
 * normalised by the shared schema EmbedLinkHosts; empty: any site). Scoped and conditional like the
 * expiry change (set-embed-link-expiry.command.ts): another tenant's or (for a non-owner) another
 * user's link is a 404, a revoked one a 409. The change holds at once in this process and within
 * EMBED_ACCESS_CACHE_MS in the others (the embed page's frame-ancestors and the view counting read
 * the same cached record).
 */
export async function setEmbedLinkHosts(
  deps: ServerDeps,
  actor: Actor,
  input: { id: number; allowedHosts: string[] },
  now = new Date(),
): Promise<EmbedLinkView> {
  const scope = { id: input.id, ...linksVisibleTo(actor) };
  const { count } = await deps.db.embedToken.updateMany({
    where: { ...scope, revokedAt: null },
    data: { allowedHosts: input.allowedHosts },
  });
  const link = await deps.db.embedToken.findFirst({ where: scope, select: embedLinkSelect });
  if (!link) throw AppError.notFound();
  if (count === 0) throw AppError.conflict(MSG.linkRevokedUnchangeable);
  forgetEmbedAccess(deps.config, link.tokenHash);
  const [view] = await presentLinks(deps, actor, [link], now);
  return view!;
}
