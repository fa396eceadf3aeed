import { MSG } from '@helix/shared';
import type { EmbedLinkView } from '@helix/shared/schemas/embed-link';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { changeOpenLink } from './change-open-link.ts';

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
  return changeOpenLink(deps, actor, input.id, { expiresAt }, now);
}
