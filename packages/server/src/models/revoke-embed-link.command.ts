import type { EmbedLinkView } from '@helix/shared/schemas/embed-link';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { forgetEmbedAccess } from './embed-access.ts';
import { linksVisibleTo } from './embed-link.policy.ts';
import { embedLinkSelect, presentLinks } from './embed-links.query.ts';

/**
 * POST /model/links/revoke: the link stops opening its model at once in this process and within
 * EMBED_ACCESS_CACHE_MS (the embed path's cache) in the others. Revoking a revoked link changes nothing
 * (200, the first revocation time stays). A link the actor may not see is a 404.
 */
export async function revokeEmbedLink(
  deps: ServerDeps,
  actor: Actor,
  id: number,
  now = new Date(),
): Promise<EmbedLinkView> {
  const scope = { id, ...linksVisibleTo(actor) };
  await deps.db.embedToken.updateMany({ where: { ...scope, revokedAt: null }, data: { revokedAt: now } });
  const link = await deps.db.embedToken.findFirst({ where: scope, select: embedLinkSelect });
  if (!link) throw AppError.notFound();
  forgetEmbedAccess(deps.config, link.tokenHash);
  const [view] = await presentLinks(deps, actor, [link], now);
  return view!;
}
