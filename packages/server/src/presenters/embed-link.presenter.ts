import type { EmbedFlag } from '@helix/shared';
import type { EmbedLinkView } from '@helix/shared/schemas/embed-link';
import type { EmbedToken } from '../db.ts';
import { embedLinkAbilities } from '../models/embed-link.policy.ts';
import type { PolicyActor } from '../sessions/session.service.ts';

export type EmbedLinkRecord = Pick<
  EmbedToken,
  | 'id'
  | 'tenantId'
  | 'kind'
  | 'settings'
  | 'transparentBackground'
  | 'allowedHosts'
  | 'createdAt'
  | 'expiresAt'
  | 'revokedAt'
> & {
  model: { id: number; name: string };
  createdBy: { id: number; name: string };
};

/**
 * The only shape in which a link leaves the API (EmbedLinkView): never its hash or seed. `token` is the
 * link's token when the server can present it (embed-link-token.ts); a revoked link's never.
 * `abilities`: what `actor` may do with it.
 */
export function presentEmbedLink(
  link: EmbedLinkRecord,
  actor: PolicyActor,
  views: number,
  now = new Date(),
  token: string | null = null,
): EmbedLinkView {
  return {
    id: link.id,
    model: { id: link.model.id, name: link.model.name },
    kind: link.kind,
    token: link.revokedAt ? null : token,
    settings: link.settings as EmbedFlag[],
    transparentBackground: link.transparentBackground,
    allowedHosts: link.allowedHosts,
    createdBy: { id: link.createdBy.id, name: link.createdBy.name },
    createdAt: link.createdAt.toISOString(),
    expiresAt: link.expiresAt?.toISOString() ?? null,
    revokedAt: link.revokedAt?.toISOString() ?? null,
    status: link.revokedAt ? 'revoked' : link.expiresAt && link.expiresAt <= now ? 'expired' : 'active',
    views,
    abilities: embedLinkAbilities(actor, link),
  };
}
