import type { EmbedLinkView } from '@helix/shared/schemas/embed-link';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { presentEmbedLink } from '../presenters/embed-link.presenter.ts';
import type { Actor } from '../sessions/session.service.ts';
import { pendingViews } from '../views/record-view.ts';
import { viewDepsOf } from '../views/views-summary.ts';
import { linksVisibleTo } from './embed-link.policy.ts';
import { embedLinkSelect, linkViewCounts } from './embed-links.query.ts';

/**
 * POST /model/links/revoke: the link stops opening its model, in every API process within
 * EMBED_ACCESS_CACHE_MS (the embed path's cache). Revoking a revoked link changes nothing (200, the
 * first revocation time stays). A link the actor may not see is a 404.
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
  const views = await linkViewCounts(deps.db, await pendingViews(viewDepsOf(deps)), [link.id]);
  return presentEmbedLink(link, views.get(link.id) ?? 0, now);
}
