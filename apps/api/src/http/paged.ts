import type { Request, RequestHandler } from 'express';
import type { z } from 'zod';
import type { Db } from '@helix/server/db';
import type { ServerDeps } from '@helix/server/deps';
import type { Actor } from '@helix/server/sessions/session.service';
import { actorOf } from './auth.ts';
import { inputOf } from './validate.ts';

/**
 * Whether a list route's caller asked for one page (docs/lists-at-scale.md): paging is opt-in, so the
 * callers that need every matching row (an export, the offline caches) keep their whole-list answer.
 */
export const wantsPage = (req: Request): boolean =>
  req.query.page !== undefined || req.query.pageSize !== undefined;

/** A list's read: the caller's rows that match the route's validated query. */
type ListRead<Q> = (db: Db, actor: Actor, query: Q) => Promise<unknown>;

/**
 * A list route's handler: one page (`page`) when the caller asks for it (wantsPage), else every
 * matching row (`list`), each read with the caller and the query validated as `schema`. `cache`:
 * the answer's Cache-Control, when it has one.
 */
export function pageOrList<S extends z.ZodType>(
  schema: S,
  page: ListRead<z.output<S>>,
  list: ListRead<z.output<S>>,
  options: { cache?: string } = {},
): (deps: Pick<ServerDeps, 'db'>) => RequestHandler {
  return (deps) => async (req, res) => {
    const query = inputOf(req, schema);
    if (options.cache) res.set('Cache-Control', options.cache);
    res.json(await (wantsPage(req) ? page : list)(deps.db, actorOf(req), query));
  };
}
