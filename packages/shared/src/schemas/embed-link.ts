import { z } from 'zod';
import { EmbedLinkAbilities } from './abilities.ts';
import { listQuery, pageOf } from './list-query.ts';
import { EMBED_FLAGS, LINK_KINDS } from '../embed.ts';
import { MSG } from '../messages.ts';
import { MAX_ID } from './ids.ts';
import { EmbedAllowedHosts } from './embed-hosts.ts';

/**
 * Share and embed links as their owners see them (GET /model/links, POST /model/links/revoke and
 * /expiry). One token serves both the /share and the /embed page, so a link is listed once, with the
 * page it was made for (`kind`). Only the token's hash is stored; a link made since links keep a
 * seed (docs/links.md) has its token presented again to the people who may list it.
 */

/**
 * POST /model/links/hosts: the sites whose pages may show the link (an empty list: any site). The
 * Links page's form checks with this schema too.
 */
export const EmbedLinkHosts = z.strictObject({
  id: z.number().int().min(1).max(MAX_ID),
  allowedHosts: EmbedAllowedHosts,
});
export type EmbedLinkHosts = z.input<typeof EmbedLinkHosts>;

/** POST /model/links/revoke */
export const EmbedLinkRevoke = z.strictObject({
  id: z.number().int().min(1).max(MAX_ID),
});
export type EmbedLinkRevoke = z.input<typeof EmbedLinkRevoke>;

/**
 * POST /model/links/expiry: a new expiry (an ISO date-time in the future) or null (never expires). The
 * Links page's expiry form checks with this schema too; the server checks the future against its own
 * clock again.
 */
export const EmbedLinkExpiry = z
  .strictObject({
    id: z.number().int().min(1).max(MAX_ID),
    expiresAt: z.iso.datetime({ offset: true }).nullable(),
  })
  .refine((v) => v.expiresAt === null || Date.parse(v.expiresAt) > Date.now(), {
    error: MSG.linkExpiryPast,
    path: ['expiresAt'],
  });
export type EmbedLinkExpiry = z.input<typeof EmbedLinkExpiry>;

export const EMBED_LINK_STATUSES = ['active', 'expired', 'revoked'] as const;

/** One link (the answer schema: the server presents exactly this, the web parses with it). */
export const EmbedLinkView = z.strictObject({
  id: z.number().int(),
  model: z.strictObject({ id: z.number().int(), name: z.string() }),
  /** The page the link was made for; null for links made before this was recorded. */
  kind: z.enum(LINK_KINDS).nullable(),
  /**
   * The token, for building the link's address; null when the link is revoked or was made before the
   * server could present tokens again (its address was shown once, when it was made).
   */
  token: z.string().nullable(),
  settings: z.array(z.enum(EMBED_FLAGS)),
  /** Made with a transparent background (served only while the plan includes it). */
  transparentBackground: z.boolean(),
  /** The sites whose pages may show the link (`school.org`, `*.school.org`); empty: any site. */
  allowedHosts: z.array(z.string()),
  createdBy: z.strictObject({ id: z.number().int(), name: z.string() }),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  status: z.enum(EMBED_LINK_STATUSES),
  /** Views through this link since it was made (counted once per viewer per model and window). */
  views: z.number().int().min(0),
  /** What the caller may do with this link (revoke, edit its expiry and sites). */
  abilities: EmbedLinkAbilities,
});
export type EmbedLinkView = z.output<typeof EmbedLinkView>;

/** GET /model/links */
export const EmbedLinkList = z.strictObject({ links: z.array(EmbedLinkView) });
export type EmbedLinkList = z.output<typeof EmbedLinkList>;

/**
 * GET /model/links (docs/lists-at-scale.md): search (model name or who made the link), sort and order;
 * with `page` or `pageSize` one page (`EmbedLinkPage`), without them `{ links }` as before (the newest
 * 1,000).
 */
export const EMBED_LINK_SORTS = ['created_at', 'model', 'expires_at', 'created_by'] as const;
export const EmbedLinkListQuery = listQuery(EMBED_LINK_SORTS, { sort: 'created_at', order: 'desc' });
export type EmbedLinkListQuery = z.input<typeof EmbedLinkListQuery>;
export type EmbedLinkListQueryInput = z.output<typeof EmbedLinkListQuery>;
export const EmbedLinkPage = pageOf(EmbedLinkView);
export type EmbedLinkPage = z.output<typeof EmbedLinkPage>;
