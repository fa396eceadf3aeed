import type {
  SUPPORT_SORTS,
  SupportListQueryInput,
  SupportRequestPage,
  SupportRequestView,
} from '@helix/shared/schemas/support';
import type { Db, Prisma } from '../db.ts';
import { likeLiteral } from '../models/list-models.query.ts';
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

/** Filters (status, priority), search (subject, sender's name or e-mail, school) and order. */
function shapeOf(query: SupportListQueryInput) {
  const text = query.search ? { contains: likeLiteral(query.search), mode: 'insensitive' as const } : null;
  const where: Prisma.SupportRequestWhereInput = {
    ...(query.status ? { status: { in: query.status } } : {}),
    ...(query.priority !== undefined ? { priority: query.priority } : {}),
    ...(text
      ? {
          OR: [
            { subject: text },
            { user: { name: text } },
            { user: { email: text } },
            { tenant: { name: text } },
          ],
        }
      : {}),
  };
  const orderBy: Prisma.SupportRequestOrderByWithRelationInput[] = [
    { priority: 'desc' },
    ORDER_BY[query.sort](query.order),
    { id: query.order },
  ];
  return { where, orderBy };
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
