import { MSG } from '@helix/shared';
import type { EmbedLinkView } from '@helix/shared/schemas/embed-link';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { forgetEmbedAccess } from './embed-access.ts';
import { linksVisibleTo } from './embed-link.policy.ts';
import { embedLinkSelect, presentLinks } from './embed-links.query.ts';

/**
 * The one way a link's settings change (its expiry, its sites): one conditional write, so a revocation
 * that lands first is never undone or overwritten; a link the actor may not see is a 404, a revoked one
 * a 409. The change holds at once in this process and within EMBED_ACCESS_CACHE_MS in the others (the
 * embed path reads the same cached record).
 */
export async function changeOpenLink(
  deps: ServerDeps,
  actor: Actor,
  id: number,
  data: { expiresAt: Date | null } | { allowedHosts: string[] },
  now: Date,
): Promise<EmbedLinkView> {
  const scope = { id, ...linksVisibleTo(actor) };
  const { count } = await deps.db.embedToken.updateMany({ where: { ...scope, revokedAt: null }, data });
  const link = await deps.db.embedToken.findFirst({ where: scope, select: embedLinkSelect });
  if (!link) throw AppError.notFound();
  if (count === 0) throw AppError.conflict(MSG.linkRevokedUnchangeable);
  forgetEmbedAccess(deps.config, link.tokenHash);
  const [view] = await presentLinks(deps, actor, [link], now);
  return view!;
}
