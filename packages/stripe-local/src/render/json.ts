/** A rendered API object: the pinned version's JSON shape. */
export type Json = Record<string, unknown>;

/** Stripe's list envelope. */
export const list = (url: string, data: Json[], hasMore = false): Json => ({
  object: 'list',
  data,
  has_more: hasMore,
  total_count: data.length,
  url,
});
