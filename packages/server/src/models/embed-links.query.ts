import type { EmbedLinkList, EmbedLinkView } from '@helix/shared/schemas/embed-link';
import type { ServerDeps } from '../deps.ts';
import type { Db, Prisma } from '../db.ts';
import { presentEmbedLink } from '../presenters/embed-link.presenter.ts';
import type { Actor } from '../sessions/session.service.ts';
import { pendingViews } from '../views/record-view.ts';
import type { ViewEntry } from '../views/view-store.ts';
import { viewDepsOf } from '../views/views-summary.ts';
import { linksVisibleTo } from './embed-link.policy.ts';
import { presentableLinkToken } from './embed-link-token.ts';

/** A listing is for people, not an export: the newest links, at most this many. */
const MAX_LINKS = 1_000;

export const embedLinkSelect = {
  id: true,
  kind: true,
  tokenHash: true,
  tokenSeed: true,
  settings: true,
  transparentBackground: true,
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
export async function presentLinks(deps: ServerDeps, links: LinkRow[], now: Date): Promise<EmbedLinkView[]> {
  const views = await linkViewCounts(
    deps.db,
    await pendingViews(viewDepsOf(deps)),
    links.map((l) => l.id),
  );
  return links.map((link) =>
    presentEmbedLink(
      link,
      views.get(link.id) ?? 0,
      now,
      presentableLinkToken(deps.config.SIGNING_SECRET, link),
    ),
  );
}

/**
 * GET /model/links: the share and embed links the actor may see (embed-link.policy.ts), newest first,
 * with who made them, the page they were made for, their token (when it can be presented again),
 * settings, expiry, state and views.
 */
export async function listEmbedLinks(
  deps: ServerDeps,
  actor: Actor,
  now = new Date(),
): Promise<EmbedLinkList> {
  const links = await deps.db.embedToken.findMany({
    where: linksVisibleTo(actor),
    select: embedLinkSelect,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: MAX_LINKS,
  });
  return { links: await presentLinks(deps, links, now) };
}
