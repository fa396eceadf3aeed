import type {
  EMBED_LINK_SORTS,
  EmbedLinkList,
  EmbedLinkListQueryInput,
  EmbedLinkPage,
  EmbedLinkView,
} from '@helix/shared/schemas/embed-link';
import type { ServerDeps } from '../deps.ts';
import type { Db, Prisma } from '../db.ts';
import { presentEmbedLink } from '../presenters/embed-link.presenter.ts';
import type { Actor, PolicyActor } from '../sessions/session.service.ts';
import { pendingViews } from '../views/record-view.ts';
import type { ViewEntry } from '../views/view-store.ts';
import { viewDepsOf } from '../views/views-summary.ts';
import { linksVisibleTo } from './embed-link.policy.ts';
import { likeLiteral } from './list-models.query.ts';
import { presentableLinkToken } from './embed-link-token.ts';

/** A listing is for people, not an export: the newest links, at most this many. */
const MAX_LINKS = 1_000;

export const embedLinkSelect = {
  id: true,
  tenantId: true,
  kind: true,
  tokenHash: true,
  tokenSeed: true,
  settings: true,
  transparentBackground: true,
  allowedHosts: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  model: { select: { id: true, name: true } },
  createdBy: { select: { id: true, name: true } },
} as const;

/** Views per link: PostgreSQL plus what Redis has not flushed yet (`pending`), so the page never lags. */
export async function linkViewCounts(
  db: Db,
  pending: ViewEntry[],
  ids: number[],
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (ids.length === 0) return counts;
  const stored = await db.modelViewDaily.groupBy({
    by: ['embedTokenId'],
    where: { embedTokenId: { in: ids } },
    _sum: { count: true },
  });
  for (const row of stored) {
    if (row.embedTokenId !== null) counts.set(row.embedTokenId, row._sum.count ?? 0);
  }
  const wanted = new Set(ids);
  for (const entry of pending) {
    if (!entry.viewerKey.startsWith('e:')) continue;
    const id = Number(entry.viewerKey.slice(2));
    if (wanted.has(id)) counts.set(id, (counts.get(id) ?? 0) + entry.count);
  }
  return counts;
}

type LinkRow = Prisma.EmbedTokenGetPayload<{ select: typeof embedLinkSelect }>;

/** Links as the API presents them, with their views and (where the server can) their tokens. */
export async function presentLinks(
  deps: ServerDeps,
  actor: PolicyActor,
  links: LinkRow[],
  now: Date,
): Promise<EmbedLinkView[]> {
  const views = await linkViewCounts(
    deps.db,
    await pendingViews(viewDepsOf(deps)),
    links.map((l) => l.id),
  );
  return links.map((link) =>
    presentEmbedLink(
      link,
      actor,
      views.get(link.id) ?? 0,
      now,
      presentableLinkToken(deps.config.SIGNING_SECRET, link),
    ),
  );
}

type Order = Prisma.SortOrder;
const ORDER_BY: Record<
  (typeof EMBED_LINK_SORTS)[number],
  (o: Order) => Prisma.EmbedTokenOrderByWithRelationInput
> = {
  created_at: (o) => ({ createdAt: o }),
  model: (o) => ({ model: { name: o } }),
  // Links that never expire sort as the latest expiry.
  expires_at: (o) => ({ expiresAt: { sort: o, nulls: o === 'asc' ? 'last' : 'first' } }),
  created_by: (o) => ({ createdBy: { name: o } }),
};

/** The links the actor may see, searched (model name or who made the link), and their order. */
function shapeOf(actor: Actor, q: EmbedLinkListQueryInput) {
  const text = q.search ? { contains: likeLiteral(q.search), mode: 'insensitive' as const } : null;
  const where: Prisma.EmbedTokenWhereInput = {
    ...linksVisibleTo(actor),
    ...(text ? { OR: [{ model: { name: text } }, { createdBy: { name: text } }] } : {}),
  };
  const orderBy: Prisma.EmbedTokenOrderByWithRelationInput[] = [ORDER_BY[q.sort](q.order), { id: q.order }];
  return { where, orderBy };
}

/**
 * GET /model/links without a page: the share and embed links the actor may see (embed-link.policy.ts),
 * newest first by default (at most MAX_LINKS), with who made them, the page they were made for, their
 * token (when it can be presented again), settings, expiry, state and views.
 */
export async function listEmbedLinks(
  deps: ServerDeps,
  actor: Actor,
  q: EmbedLinkListQueryInput,
  now = new Date(),
): Promise<EmbedLinkList> {
  const links = await deps.db.embedToken.findMany({
    ...shapeOf(actor, q),
    select: embedLinkSelect,
    take: MAX_LINKS,
  });
  return { links: await presentLinks(deps, actor, links, now) };
}

/** GET /model/links?page=…: one page of the matching links (views only for that page) and the count. */
export async function embedLinkPage(
  deps: ServerDeps,
  actor: Actor,
  q: EmbedLinkListQueryInput,
  now = new Date(),
): Promise<EmbedLinkPage> {
  const { where, orderBy } = shapeOf(actor, q);
  const [links, total] = await Promise.all([
    deps.db.embedToken.findMany({
      where,
      orderBy,
      select: embedLinkSelect,
      skip: (q.page - 1) * q.pageSize,
      take: q.pageSize,
    }),
    deps.db.embedToken.count({ where }),
  ]);
  return { rows: await presentLinks(deps, actor, links, now), total, page: q.page, pageSize: q.pageSize };
}
