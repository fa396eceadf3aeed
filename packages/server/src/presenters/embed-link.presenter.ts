import type { EmbedFlag } from '@helix/shared';
import type { EmbedLinkView } from '@helix/shared/schemas/embed-link';
import type { EmbedToken } from '../db.ts';

export type EmbedLinkRecord = Pick<
  EmbedToken,
  'id' | 'settings' | 'transparentBackground' | 'createdAt' | 'expiresAt' | 'revokedAt'
> & {
  model: { id: number; name: string };
  createdBy: { id: number; name: string };
};

/** The only shape in which a link leaves the API (EmbedLinkView): never its hash. */
export function presentEmbedLink(link: EmbedLinkRecord, views: number, now = new Date()): EmbedLinkView {
  return {
    id: link.id,
    model: { id: link.model.id, name: link.model.name },
    settings: link.settings as EmbedFlag[],
    transparentBackground: link.transparentBackground,
    createdBy: { id: link.createdBy.id, name: link.createdBy.name },
    createdAt: link.createdAt.toISOString(),
    expiresAt: link.expiresAt?.toISOString() ?? null,
    revokedAt: link.revokedAt?.toISOString() ?? null,
    status: link.revokedAt ? 'revoked' : link.expiresAt && link.expiresAt <= now ? 'expired' : 'active',
    views,
  };
}
