import { z } from 'zod';
import { EMBED_FLAGS } from '../embed.ts';
import { MAX_ID } from './ids.ts';

/**
 * Share and embed links as their owners see them (GET /model/links, POST /model/links/revoke). One
 * token serves both the /share and the /embed page, so a link is listed once; the token itself is
 * never shown again (only its hash is stored).
 */

/** POST /model/links/revoke */
export const EmbedLinkRevoke = z.strictObject({
  id: z.number().int().min(1).max(MAX_ID),
});
export type EmbedLinkRevoke = z.input<typeof EmbedLinkRevoke>;

export const EMBED_LINK_STATUSES = ['active', 'expired', 'revoked'] as const;

/** One link (the answer schema: the server presents exactly this, the web parses with it). */
export const EmbedLinkView = z.strictObject({
  id: z.number().int(),
  model: z.strictObject({ id: z.number().int(), name: z.string() }),
  settings: z.array(z.enum(EMBED_FLAGS)),
  /** Made with a transparent background (served only while the plan includes it). */
  transparentBackground: z.boolean(),
  createdBy: z.strictObject({ id: z.number().int(), name: z.string() }),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  status: z.enum(EMBED_LINK_STATUSES),
  /** Views through this link since it was made (counted once per viewer per model and window). */
  views: z.number().int().min(0),
});
export type EmbedLinkView = z.output<typeof EmbedLinkView>;

/** GET /model/links */
export const EmbedLinkList = z.strictObject({ links: z.array(EmbedLinkView) });
export type EmbedLinkList = z.output<typeof EmbedLinkList>;
