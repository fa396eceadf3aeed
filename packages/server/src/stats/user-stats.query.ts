import type { UserStatsPage, UserStatsQueryInput } from '@helix/shared/schemas/list-query';
import { Prisma, type Db } from '../db.ts';
import { isPlatformAdmin } from '../models/model.policy.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorizeStats } from './stats.policy.ts';
import { shownEmailSql, userSearchSql } from '../users/user-list.sql.ts';

const ORDER: Record<UserStatsQueryInput['sort'], Prisma.Sql> = {
  views: Prisma.sql`views`,
  name: Prisma.sql`lower(u.name)`,
  email: shownEmailSql,
};

/**
 * GET /stats/users (docs/lists-at-scale.md): one page of users with their views of live models, top
 * first by default, searched by name or e-mail (trigram indexes), counted and summed by the database.
 * A platform admin sees every tenant's users with their running totals (User.viewTotal: every order
 * and the platform's total views read without summing view-days); anyone else their own tenant's,
 * with their views in that tenant summed per user from the (userId, modelId, count) index. Views still
 * buffered in Redis (not yet flushed) are not included. The e-mail shown and searched is the one the
 * school knows (an invite of an address elsewhere: `elsewhereEmail`, never the placeholder;
 * docs/invite-privacy.md).
 */
export async function userStatsPage(db: Db, actor: Actor, q: UserStatsQueryInput): Promise<UserStatsPage> {
  authorizeStats(actor, 'users');
  const tenant = isPlatformAdmin(actor) ? Prisma.empty : Prisma.sql`AND u."tenantId" = ${actor.tenant.id}`;
  const viewTenant = isPlatformAdmin(actor)
    ? Prisma.empty
    : Prisma.sql`AND v."tenantId" = ${actor.tenant.id}`;
  const like = Boolean(q.search);
  const search = userSearchSql(q.search);
  const direction = q.order === 'asc' ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  const users = Prisma.sql`FROM "User" u WHERE u."deletedAt" IS NULL ${tenant} ${search}`;
  const liveViews = Prisma.sql`FROM "ModelViewDaily" v JOIN "Model" m ON m.id = v."modelId" AND m."deletedAt" IS NULL`;
  // One user's views, read from the (userId, modelId, count) index.
  const viewsOfUser = Prisma.sql`LEFT JOIN LATERAL (
      SELECT SUM(v.count)::bigint AS views ${liveViews} WHERE v."userId" = u.id ${viewTenant}
    ) s ON true`;
  const order = Prisma.sql`ORDER BY ${ORDER[q.sort]} ${direction}, u.id ${direction}`;
  const limit = Prisma.sql`LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}`;
  type Row = { id: number; name: string; email: string; tenantName: string; views: bigint };
  const select = Prisma.sql`SELECT u.id, u.name, ${shownEmailSql} AS email, t.name AS "tenantName", COALESCE(s.views, 0)::bigint AS views`;
  let rowsQuery: Prisma.Sql;
  let totalViewsQuery: Prisma.Sql;
  if (isPlatformAdmin(actor)) {
    // Every tenant's views: each user's running total of views of live models (User.viewTotal, kept
    // by the database triggers in the same transaction as ModelViewDaily), read from its index.
    const platformOrder: Record<UserStatsQueryInput['sort'], Prisma.Sql> = {
      ...ORDER,
      views: Prisma.sql`u."viewTotal"`,
    };
    rowsQuery = Prisma.sql`SELECT u.id, u.name, ${shownEmailSql} AS email, t.name AS "tenantName", u."viewTotal"::bigint AS views
      FROM (SELECT u.* ${users} ORDER BY ${platformOrder[q.sort]} ${direction}, u.id ${direction} ${limit}) u
      JOIN "Tenant" t ON t.id = u."tenantId"
      ORDER BY ${platformOrder[q.sort]} ${direction}, u.id ${direction}`;
    totalViewsQuery = Prisma.sql`SELECT SUM(u."viewTotal")::bigint AS views ${users}`;
  } else {
    rowsQuery =
      q.sort === 'views'
        ? // The school's users (a few thousand at most) with their views in the school, ranked.
          Prisma.sql`${select}
            FROM (SELECT u.* ${users}) u
            JOIN "Tenant" t ON t.id = u."tenantId" ${viewsOfUser} ${order} ${limit}`
        : // By name or e-mail: the page of users first, then only their views.
          Prisma.sql`${select}
            FROM (SELECT u.* ${users} ${order} ${limit}) u
            JOIN "Tenant" t ON t.id = u."tenantId" ${viewsOfUser} ${order}`;
    totalViewsQuery = like
      ? Prisma.sql`SELECT SUM(s.views)::bigint AS views FROM (SELECT u.id ${users}) u ${viewsOfUser}`
      : Prisma.sql`SELECT SUM(v.count)::bigint AS views ${liveViews}
          JOIN "User" u ON u.id = v."userId" AND u."deletedAt" IS NULL WHERE true ${viewTenant}`;
  }
  const [rows, counted, summed] = await Promise.all([
    db.$queryRaw<Row[]>(rowsQuery),
    db.$queryRaw<{ total: bigint }[]>`SELECT COUNT(*)::bigint AS total ${users}`,
    db.$queryRaw<{ views: bigint | null }[]>(totalViewsQuery),
  ]);
  return {
    rows: rows.map((r) => ({ ...r, views: Number(r.views) })),
    total: Number(counted[0]?.total ?? 0),
    totalViews: Number(summed[0]?.views ?? 0),
    page: q.page,
    pageSize: q.pageSize,
  };
}
