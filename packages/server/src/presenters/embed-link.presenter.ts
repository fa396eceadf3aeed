import type { EmbedFlag } from '@helix/shared';
import type { EmbedLinkView } from '@helix/shared/schemas/embed-link';
import type { EmbedToken } from '../db.ts';

export type EmbedLinkRecord = Pick<
  EmbedToken,
  | 'id'
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
 */
export function presentEmbedLink(
  link: EmbedLinkRecord,
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
  };
}
