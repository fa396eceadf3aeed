import type {
  TenantUserList,
  TenantUserPage,
  TenantUsersQueryInput,
  TenantUserView,
} from '@helix/shared/schemas/tenant-user';
import { Prisma, type Db } from '../db.ts';
import { readSeats } from '../invites/seats.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorizeUser } from './user.policy.ts';
import { lastLogins, presentTenantUser, tenantUserSelect } from './tenant-user.presenter.ts';
import { inOrderOf, pageSql, USER_SORT_COLUMNS, userOrderSql, userSearchSql } from './user-list.sql.ts';

type Paging = { page: number; pageSize: number } | null;

/**
 * The tenant's live users matching the query, in its order: ids (and the count) from one SQL query
 * over the tenant's rows, then the page's users with their roles and latest logins.
 */
async function tenantUsers(
  db: Db,
  actor: Actor,
  q: TenantUsersQueryInput,
  paging: Paging,
): Promise<{ users: TenantUserView[]; total: number }> {
  // Always the actor's own tenant (a platform admin's GET /user/all goes to the platform list).
  const where = Prisma.sql`FROM "User" u WHERE u."tenantId" = ${actor.tenant.id} AND u."deletedAt" IS NULL
    ${userSearchSql(q.search)}`;
  const [ids, counted] = await Promise.all([
    db.$queryRaw<{ id: number }[]>`SELECT u.id ${where}
      ${userOrderSql(USER_SORT_COLUMNS[q.sort], q.order)} ${paging ? pageSql(paging) : Prisma.empty}`,
    paging
      ? db.$queryRaw<{ total: bigint }[]>`SELECT COUNT(*)::bigint AS total ${where}`
      : Promise.resolve(null),
  ]);
  const pageIds = ids.map((r) => r.id);
  const [users, logins] = await Promise.all([
    db.user.findMany({
      // A page reads its rows by id; the whole list (maybe thousands of ids) by the tenant.
      where: paging
        ? { id: { in: pageIds }, tenantId: actor.tenant.id }
        : { tenantId: actor.tenant.id, deletedAt: null },
      select: tenantUserSelect,
    }),
    lastLogins(db, pageIds),
  ]);
  return {
    users: inOrderOf(pageIds, users).map((u) => presentTenantUser(u, logins.get(u.id) ?? null, actor)),
    total: counted ? Number(counted[0]?.total ?? 0) : pageIds.length,
  };
}

/**
 * GET /user/all (tenant owner) without paging: every live user matching the search, in the query's
 * order (by name by default), with status and latest login (the users export), and the seat count.
 */
export async function listTenantUsers(
  db: Db,
  actor: Actor,
  q: TenantUsersQueryInput = { page: 1, pageSize: 20, sort: 'name', order: 'asc' },
): Promise<TenantUserList> {
  authorizeUser(actor, 'list');
  const [{ users }, seats] = await Promise.all([
    tenantUsers(db, actor, q, null),
    readSeats(db, actor.tenant.id),
  ]);
  return { users, totalUsers: seats.used, userLimit: seats.limit };
}

/**
 * GET /user/all?page=… (docs/lists-at-scale.md): one page of the tenant's live users matching the
 * search, `total` of them all, and the seat count.
 */
export async function pageTenantUsers(
  db: Db,
  actor: Actor,
  q: TenantUsersQueryInput,
): Promise<TenantUserPage> {
  authorizeUser(actor, 'list');
  const [{ users, total }, seats] = await Promise.all([
    tenantUsers(db, actor, q, q),
    readSeats(db, actor.tenant.id),
  ]);
  return {
    rows: users,
    total,
    page: q.page,
    pageSize: q.pageSize,
    totalUsers: seats.used,
    userLimit: seats.limit,
  };
}
