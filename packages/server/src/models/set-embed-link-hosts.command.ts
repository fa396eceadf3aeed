import type { EmbedLinkView } from '@helix/shared/schemas/embed-link';
import type { ServerDeps } from '../deps.ts';
import type { Actor } from '../sessions/session.service.ts';
import { changeOpenLink } from './change-open-link.ts';

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
  return changeOpenLink(deps, actor, input.id, { allowedHosts: input.allowedHosts }, now);
}
