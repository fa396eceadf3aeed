import type { Request } from 'express';

/**
 * Whether a list route's caller asked for one page (docs/lists-at-scale.md): paging is opt-in, so the
 * callers that need every matching row (an export, the offline caches) keep their whole-list answer.
 */
export const wantsPage = (req: Request): boolean =>
  req.query.page !== undefined || req.query.pageSize !== undefined;
