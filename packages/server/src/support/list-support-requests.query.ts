import type { SUPPORT_SORTS, SupportListQueryInput, SupportRequestView } from '@helix/shared/schemas/support';
import type { Db, Prisma } from '../db.ts';
import type { Actor } from '../sessions/session.service.ts';
import { presentSupportRequest, supportRequestInclude } from './support-request.presenter.ts';
import { authorizeSupport } from './support.policy.ts';

/** The most rows one answer carries (the page filters the rest away by status). */
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

/**
 * GET /support (platform admins): every tenant's requests, filtered by status and priority. Priority
 * requests come first, then the chosen order (default oldest first: the longest wait on top).
 */
export async function listSupportRequests(
  db: Db,
  actor: Actor,
  query: SupportListQueryInput,
): Promise<SupportRequestView[]> {
  authorizeSupport(actor, 'list');
  const rows = await db.supportRequest.findMany({
    where: {
      ...(query.status ? { status: query.status } : {}),
      ...(query.priority !== undefined ? { priority: query.priority } : {}),
    },
    orderBy: [{ priority: 'desc' }, ORDER_BY[query.sort](query.order), { id: query.order }],
    take: SUPPORT_LIST_MAX,
    include: supportRequestInclude,
  });
  return rows.map(presentSupportRequest);
}
