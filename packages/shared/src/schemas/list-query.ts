import { z } from 'zod';
import { MSG } from '../messages.ts';

/**
 * Lists at scale (issue 18 point 4, docs/lists-at-scale.md): one query shape for every list that can
 * grow (page, pageSize up to LIST_PAGE_SIZE_MAX, search, a sort field from the list's allow-list,
 * order), shared by the web table and the route, and one answer shape (rows, total, page, pageSize).
 */
export const LIST_PAGE_SIZE_MAX = 100;
export const LIST_SEARCH_MAX = 200;

export function listQuery<const S extends readonly [string, ...string[]]>(
  sorts: S,
  defaults: { sort: S[number]; order: 'asc' | 'desc' },
) {
  return z.strictObject({
    page: z.coerce
      .number({ error: MSG.listPageInvalid })
      .int(MSG.listPageInvalid)
      .min(1, MSG.listPageInvalid)
      .max(100_000, MSG.listPageInvalid)
      .default(1),
    pageSize: z.coerce
      .number({ error: MSG.listPageSizeInvalid })
      .int(MSG.listPageSizeInvalid)
      .min(1, MSG.listPageSizeInvalid)
      .max(LIST_PAGE_SIZE_MAX, MSG.listPageSizeInvalid)
      .default(20),
    search: z.string().trim().max(LIST_SEARCH_MAX, MSG.listSearchTooLong).optional(),
    sort: z.enum(sorts, { error: MSG.listSortInvalid }).default(defaults.sort),
    order: z.enum(['asc', 'desc'], { error: MSG.listOrderInvalid }).default(defaults.order),
  });
}

/** The input of any `listQuery` schema (what the web sends): every field optional. */
export type ListQueryParams<S extends string = string> = {
  page?: number;
  pageSize?: number;
  search?: string;
  sort?: S;
  order?: 'asc' | 'desc';
};

/** The answer of a paged list: `rows` is one page, `total` counts every row that matches. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({
    rows: z.array(row),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });

/** GET /stats/users: each user's views of the visible catalogue, top first by default. */
export const USER_STATS_SORTS = ['views', 'name', 'email'] as const;
export const UserStatsQuery = listQuery(USER_STATS_SORTS, { sort: 'views', order: 'desc' });
export type UserStatsQuery = z.input<typeof UserStatsQuery>;
export type UserStatsQueryInput = z.output<typeof UserStatsQuery>;

export const UserStatsRow = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  tenantName: z.string(),
  views: z.number().int(),
});
export type UserStatsRow = z.infer<typeof UserStatsRow>;

export const UserStatsPage = pageOf(UserStatsRow).extend({
  /** Views of every user in scope (not only this page), summed by the database. */
  totalViews: z.number().int(),
});
export type UserStatsPage = z.infer<typeof UserStatsPage>;
