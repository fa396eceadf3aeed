import type { Request } from 'express';

/**
 * Lists at scale (docs/lists-at-scale.md): a list route answers one page (`{ rows, total, page,
 * pageSize }`) when the caller asks for one with `page` or `pageSize`; without them it keeps its
 * earlier whole-list answer (exports, older callers), with the same search and order.
 */
export const asksForPage = (req: Request): boolean =>
  req.query.page !== undefined || req.query.pageSize !== undefined;
