import { Prisma } from '../db.ts';
import { likeLiteral } from '../models/list-models.query.ts';

/**
 * The pieces every users list (the tenant's users, the platform's users, the statistics' users) builds
 * its SQL from (docs/lists-at-scale.md), over `"User" u`.
 *
 * The address a list shows and searches is the one the school knows (docs/invite-privacy.md): for a
 * pending invite of an address registered at another school, `elsewhereEmail`, never the
 * `invite-…@elsewhere.invalid` placeholder in `email`.
 */
export const shownEmailSql = Prisma.sql`COALESCE(u."elsewhereEmail", u.email)`;

/**
 * `AND (name or shown e-mail contains the search)`, case-insensitive, `%` and `_` literal; nothing
 * without a search. Written as three arms (same meaning as ILIKE on shownEmailSql) so each can use
 * its trigram index: name, email (no elsewhere address) and elsewhereEmail.
 */
export function userSearchSql(search: string | undefined): Prisma.Sql {
  if (!search) return Prisma.empty;
  const like = `%${likeLiteral(search)}%`;
  return Prisma.sql`AND (u.name ILIKE ${like}
    OR (u."elsewhereEmail" IS NULL AND u.email ILIKE ${like})
    OR u."elsewhereEmail" ILIKE ${like})`;
}

/** `ORDER BY <column> <order>, u.id <order>`: the id keeps ties in a stable order across pages. */
export function userOrderSql(column: Prisma.Sql, order: 'asc' | 'desc'): Prisma.Sql {
  const direction = order === 'asc' ? Prisma.sql`ASC` : Prisma.sql`DESC`;
  return Prisma.sql`ORDER BY ${column} ${direction}, u.id ${direction}`;
}

/** `LIMIT … OFFSET …` of one page. */
export const pageSql = (q: { page: number; pageSize: number }): Prisma.Sql =>
  Prisma.sql`LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}`;

/** The sort columns the users lists share. */
export const USER_SORT_COLUMNS = {
  name: Prisma.sql`lower(u.name)`,
  email: shownEmailSql,
  createdAt: Prisma.sql`u."createdAt"`,
} as const;

/** Rows in the order of `ids` (a page's ids, read again with Prisma's includes). */
export function inOrderOf<T extends { id: number }>(ids: number[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
