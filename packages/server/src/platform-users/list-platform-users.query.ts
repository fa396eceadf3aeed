import type {
  PlatformUserPage,
  PlatformUsersQueryInput,
  PlatformUserView,
} from '@helix/shared/schemas/platform-user';
import { Prisma, type Db } from '../db.ts';
import { paymentPlanOf } from '../presenters/session-user.presenter.ts';
import type { SubscriptionRecord } from '../sessions/session-user.include.ts';
import type { Actor, PolicyActor } from '../sessions/session.service.ts';
import { authorize, platformUserAbilities } from './platform-user.policy.ts';
import { shownEmail } from '../invites/invite-elsewhere.ts';
import {
  inOrderOf,
  pageSql,
  USER_SORT_COLUMNS,
  userOrderSql,
  userSearchSql,
} from '../users/user-list.sql.ts';

export const platformUserInclude = {
  tenant: { include: { subscription: { include: { plan: { select: { name: true } } } } } },
  roles: { include: { role: { select: { id: true, name: true } } } },
} satisfies Prisma.UserInclude;

type Row = Prisma.UserGetPayload<{ include: typeof platformUserInclude }>;

/** A user as the platform tables show them, with what `actor` may do with them. */
export function presentPlatformUser(user: Row, actor: PolicyActor): PlatformUserView {
  return {
    id: user.id,
    name: user.name,
    email: shownEmail(user),
    userName: user.userName,
    isAdmin: user.isAdmin,
    isOwner: user.isOwner,
    // paymentPlanOf reads only the status and the plan's name.
    paymentPlan: paymentPlanOf(user.tenant.subscription as SubscriptionRecord | null),
    companyName: user.tenant.name,
    tenant: user.tenant.domainPrefix,
    roles: user.roles.map(({ role }) => role).sort((a, b) => a.id - b.id),
    rolesVersion: user.rolesVersion,
    createdAt: user.createdAt.toISOString(),
    abilities: platformUserAbilities(actor),
  };
}

const ORDER = {
  ...USER_SORT_COLUMNS,
  companyName: Prisma.sql`lower(t.name)`,
} satisfies Record<PlatformUsersQueryInput['sort'], Prisma.Sql>;

/**
 * Every tenant's live users matching the query, in its order: ids (and the count) from one SQL query,
 * then those users with their tenant, plan and roles.
 */
async function platformUsers(
  db: Db,
  actor: PolicyActor,
  q: PlatformUsersQueryInput,
  paging: { page: number; pageSize: number } | null,
): Promise<{ users: PlatformUserView[]; total: number }> {
  const where = Prisma.sql`FROM "User" u WHERE u."deletedAt" IS NULL ${userSearchSql(q.search)}`;
  const join = q.sort === 'companyName' ? Prisma.sql`JOIN "Tenant" t ON t.id = u."tenantId"` : Prisma.empty;
  const [ids, counted] = await Promise.all([
    db.$queryRaw<{ id: number }[]>`SELECT u.id FROM (SELECT u.* ${where}) u ${join}
      ${userOrderSql(ORDER[q.sort], q.order)} ${paging ? pageSql(paging) : Prisma.empty}`,
    paging
      ? db.$queryRaw<{ total: bigint }[]>`SELECT COUNT(*)::bigint AS total ${where}`
      : Promise.resolve(null),
  ]);
  const pageIds = ids.map((r) => r.id);
  const users = await db.user.findMany({
    where: paging ? { id: { in: pageIds } } : { deletedAt: null },
    include: platformUserInclude,
  });
  return {
    users: inOrderOf(pageIds, users).map((u) => presentPlatformUser(u, actor)),
    total: counted ? Number(counted[0]?.total ?? 0) : pageIds.length,
  };
}

/**
 * GET /user/all for a platform admin without paging: every user of every tenant (deleted users
 * excepted) matching the search, newest first by default.
 */
export async function listPlatformUsers(
  db: Db,
  actor: Actor,
  q: PlatformUsersQueryInput = { page: 1, pageSize: 20, sort: 'createdAt', order: 'desc' },
): Promise<PlatformUserView[]> {
  authorize(actor, 'list');
  return (await platformUsers(db, actor, q, null)).users;
}

/** GET /user/all?page=… for a platform admin (/users, /permissions): one page and the total. */
export async function pagePlatformUsers(
  db: Db,
  actor: Actor,
  q: PlatformUsersQueryInput,
): Promise<PlatformUserPage> {
  authorize(actor, 'list');
  const { users, total } = await platformUsers(db, actor, q, q);
  return { rows: users, total, page: q.page, pageSize: q.pageSize };
}
