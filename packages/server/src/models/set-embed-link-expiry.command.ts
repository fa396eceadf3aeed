import { MSG } from '@helix/shared';
import type { EmbedLinkView } from '@helix/shared/schemas/embed-link';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { forgetEmbedAccess } from './embed-access.ts';
import { linksVisibleTo } from './embed-link.policy.ts';
import { embedLinkSelect, presentLinks } from './embed-links.query.ts';

/**
 * POST /model/links/expiry: a link's new expiry (in the future) or none. An expired link given a later
 * expiry opens again; a revoked one cannot be changed (409). A link the actor may not see is a 404.
 * Like a revocation, the change holds at once in this process and within EMBED_ACCESS_CACHE_MS in the
 * others (the embed path checks a cached expiry against the clock on every load).
 */
export async function setEmbedLinkExpiry(
  deps: ServerDeps,
  actor: Actor,
  input: { id: number; expiresAt: string | null },
  now = new Date(),
): Promise<EmbedLinkView> {
  const expiresAt = input.expiresAt === null ? null : new Date(input.expiresAt);
  if (expiresAt && expiresAt <= now) throw AppError.field('expiresAt', MSG.linkExpiryPast, 400);
  const scope = { id: input.id, ...linksVisibleTo(actor) };
  // One conditional write: a revocation that lands first is never undone or overwritten.
  const { count } = await deps.db.embedToken.updateMany({
    where: { ...scope, revokedAt: null },
    data: { expiresAt },
  });
  const link = await deps.db.embedToken.findFirst({ where: scope, select: embedLinkSelect });
  if (!link) throw AppError.notFound();
  if (count === 0) throw AppError.conflict(MSG.linkRevokedUnchangeable);
  forgetEmbedAccess(deps.config, link.tokenHash);
  const [view] = await presentLinks(deps, actor, [link], now);
  return view!;
}
