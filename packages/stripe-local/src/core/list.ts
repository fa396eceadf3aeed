import type { Context } from './context.ts';
import { invalidRequest } from './errors.ts';
import { int, obj, str } from './params.ts';
import type { Json } from './render.ts';

/** The pagination parameters every list takes. */
export const listShape = {
  limit: int(1, 100),
  starting_after: str(),
  ending_before: str(),
};

/** A `created` filter: `created[gte]=...` or an exact timestamp. */
export const createdFilter = obj({ gt: int(), gte: int(), lt: int(), lte: int() });

export function matchesCreated(
  created: number,
  filter: { gt?: number; gte?: number; lt?: number; lte?: number } | undefined,
) {
  if (!filter) return true;
  return (
    (filter.gt === undefined || created > filter.gt) &&
    (filter.gte === undefined || created >= filter.gte) &&
    (filter.lt === undefined || created < filter.lt) &&
    (filter.lte === undefined || created <= filter.lte)
  );
}

/** Newest-first rows cut by Stripe's cursor rules into `{ object: 'list', data, has_more, url }`. */
export function paginate<T extends { id: string }>(
  ctx: Context,
  rows: T[],
  params: { limit?: number; starting_after?: string; ending_before?: string },
  url: string,
  render: (ctx: Context, row: T) => Json,
): Json {
  const limit = params.limit ?? 10;
  let slice = rows;
  if (params.starting_after) {
    const at = rows.findIndex((r) => r.id === params.starting_after);
    if (at < 0)
      throw invalidRequest(
        `No such object: '${params.starting_after}'`,
        { code: 'resource_missing', param: 'starting_after' },
        404,
      );
    slice = rows.slice(at + 1);
  } else if (params.ending_before) {
    const at = rows.findIndex((r) => r.id === params.ending_before);
    if (at < 0)
      throw invalidRequest(
        `No such object: '${params.ending_before}'`,
        { code: 'resource_missing', param: 'ending_before' },
        404,
      );
    slice = rows.slice(Math.max(0, at - limit), at);
    return { object: 'list', data: slice.map((r) => render(ctx, r)), has_more: at - limit > 0, url };
  }
  return {
    object: 'list',
    data: slice.slice(0, limit).map((r) => render(ctx, r)),
    has_more: slice.length > limit,
    url,
  };
}
