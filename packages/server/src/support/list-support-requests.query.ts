import type {
  SUPPORT_SORTS,
  SupportListQueryInput,
  SupportRequestPage,
  SupportRequestView,
} from '@helix/shared/schemas/support';
import { Prisma, type Db } from '../db.ts';
import { likeLiteral } from '../models/list-models.query.ts';
import { inOrderOf } from '../users/user-list.sql.ts';
import type { Actor } from '../sessions/session.service.ts';
import { presentSupportRequest, supportRequestInclude } from './support-request.presenter.ts';
import { authorizeSupport } from './support.policy.ts';

/** The most rows the whole-list answer (no page asked) carries. */
export const SUPPORT_LIST_MAX = 1000;

type Order = Prisma.SortOrder;
const ORDER_BY: Record<
  (typeof SUPPORT_SORTS)[number],
  (o: Order) => Prisma.SupportRequestOrderByWithRelationInput
> = {
  created_at: (o) => ({ createdAt: o }),
  status: (o) => ({ status: o }),
  tenant: (o) => ({ tenant: { name: o } }),
  plan: (o) => ({ planName: { sort: o, nulls: 'last' } }),
};

/** Filters (status, priority) and order, for the lists without a search (Prisma). */
function shapeOf(query: SupportListQueryInput) {
  const where: Prisma.SupportRequestWhereInput = {
    ...(query.status ? { status: { in: query.status } } : {}),
    ...(query.priority !== undefined ? { priority: query.priority } : {}),
  };
  const orderBy: Prisma.SupportRequestOrderByWithRelationInput[] = [
    { priority: 'desc' },
    ORDER_BY[query.sort](query.order),
    { id: query.order },
  ];
  return { where, orderBy };
}

/** The same orders in SQL (over `"SupportRequest" s LEFT JOIN "Tenant" t`), as Prisma writes them. */
const SQL_ORDER: Record<(typeof SUPPORT_SORTS)[number], (d: Prisma.Sql) => Prisma.Sql> = {
  created_at: (d) => Prisma.sql`s."createdAt" ${d}`,
  status: (d) => Prisma.sql`s.status ${d}`,
  tenant: (d) => Prisma.sql`t.name ${d}`,
  plan: (d) => Prisma.sql`s."planName" ${d} NULLS LAST`,
};

/**
 * A search (subject, sender's name or e-mail, school; case-insensitive, `%` and `_` literal) in SQL:
 * the ids of the matching requests as a UNION of one arm per table, so each arm reads its trigram
 * index (SupportRequest.subject, User.name and email, Tenant.name) and the requests of the matching
 * users and schools by their indexes, instead of one OR across three tables over every request
 * (docs/lists-at-scale.md). Answers the ids of the asked slice in the list's order, and the count.
 */
async function searchedIds(
  db: Db,
  query: SupportListQueryInput & { search: string },
  slice: { take: number; skip: number },
): Promise<{ ids: number[]; total: number }> {
  const like = `%${likeLiteral(query.search)}%`;
  const filters = Prisma.sql`s.id IN (
      SELECT r.id FROM "SupportRequest" r WHERE r.subject ILIKE ${like}
      UNION SELECT r.id FROM "SupportRequest" r JOIN "User" u ON u.id = r."userId"
        WHERE u.name ILIKE ${like} OR u.email ILIKE ${like}
      UNION SELECT r.id FROM "SupportRequest" r JOIN "Tenant" st ON st.id = r."tenantId"
        WHERE st.name ILIKE ${like})
    ${query.status ? Prisma.sql`AND s.status::text IN (${Prisma.join(query.status)})` : Prisma.empty}
    ${query.priority !== undefined ? Prisma.sql`AND s.priority = ${query.priority}` : Prisma.empty}`;
  const direction = query.order === 'asc' ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  const [rows, counted] = await Promise.all([
    db.$queryRaw<{ id: number }[]>`SELECT s.id FROM "SupportRequest" s
      LEFT JOIN "Tenant" t ON t.id = s."tenantId"
      WHERE ${filters}
      ORDER BY s.priority DESC, ${SQL_ORDER[query.sort](direction)}, s.id ${direction}
      LIMIT ${slice.take} OFFSET ${slice.skip}`,
    db.$queryRaw<{ total: bigint }[]>`SELECT COUNT(*)::bigint AS total FROM "SupportRequest" s
      WHERE ${filters}`,
  ]);
  return { ids: rows.map((r) => r.id), total: Number(counted[0]?.total ?? 0) };
}

/** The requests of `ids`, in that order, as the list shows them. */
async function requestsOf(db: Db, ids: number[]): Promise<SupportRequestView[]> {
  const rows = await db.supportRequest.findMany({
    where: { id: { in: ids } },
    include: supportRequestInclude,
  });
  return inOrderOf(ids, rows).map(presentSupportRequest);
}

/**
 * GET /support (platform admins) without a page: every tenant's matching requests (at most
 * SUPPORT_LIST_MAX). Priority requests come first, then the chosen order (default oldest first: the
 * longest wait on top).
 */
export async function listSupportRequests(
  db: Db,
  actor: Actor,
  query: SupportListQueryInput,
): Promise<SupportRequestView[]> {
  authorizeSupport(actor, 'list');
  if (query.search) {
    const { ids } = await searchedIds(
      db,
      { ...query, search: query.search },
      {
        take: SUPPORT_LIST_MAX,
        skip: 0,
      },
    );
    return requestsOf(db, ids);
  }
  const rows = await db.supportRequest.findMany({
    ...shapeOf(query),
    take: SUPPORT_LIST_MAX,
    include: supportRequestInclude,
  });
  return rows.map(presentSupportRequest);
}

/** GET /support?page=…: one page of the matching requests (same order) and how many match in all. */
export async function supportRequestPage(
  db: Db,
  actor: Actor,
  query: SupportListQueryInput,
): Promise<SupportRequestPage> {
  authorizeSupport(actor, 'list');
  if (query.search) {
    const { ids, total } = await searchedIds(
      db,
      { ...query, search: query.search },
      {
        take: query.pageSize,
        skip: (query.page - 1) * query.pageSize,
      },
    );
    return { rows: await requestsOf(db, ids), total, page: query.page, pageSize: query.pageSize };
  }
  const { where, orderBy } = shapeOf(query);
  const [rows, total] = await Promise.all([
    db.supportRequest.findMany({
      where,
      orderBy,
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
      include: supportRequestInclude,
    }),
    db.supportRequest.count({ where }),
  ]);
  return { rows: rows.map(presentSupportRequest), total, page: query.page, pageSize: query.pageSize };
}
