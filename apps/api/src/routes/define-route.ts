import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { z } from 'zod';
import type { Permission } from '@helix/shared';
import type { ServerDeps } from '@helix/server/deps';
import { auth, can } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import { describeRoute, type HttpMethod, type RouteDoc } from '../openapi/describe.ts';

/** Where base calls are mounted, and tenant calls (behind the session and the tenant check, app.ts). */
export const API = '/api';
export const TENANT = '/api/t/:tenant';

type Source = 'params' | 'query' | 'body';

/**
 * One route, declared once: what the reference says of it (RouteDoc: summary, schemas, answers) and
 * how it is mounted. The chain is the session (`auth: 'session'` on a base path; tenant paths have it
 * from their router), `can()` of `can`, then `before`, then validate() of the declared
 * params, query or body (one of them, onto req.input, read with inputOf), then `after`, then the handler.
 */
export interface RouteSpec<D = ServerDeps> extends RouteDoc {
  method: HttpMethod;
  /** The full Express path, `/api/t/:tenant/model/all`. */
  path: `/api${string}`;
  /** The route's gate: every listed permission is needed (`can()`, first in the chain), and described. */
  can?: Permission | Permission[];
  /** Middleware before the input is validated, in order: auth, a policy gate, uploads, limits, idempotency. */
  before?: (deps: D) => RequestHandler[];
  /** Middleware after validation: the audit, a per-user limit. */
  after?: (deps: D) => RequestHandler[];
  /**
   * Inputs that are described but not validated here: the handler (or a middleware of its own) reads
   * them, and its failure is not validate()'s 400 (a page, a 403).
   */
  describeOnly?: Source[];
  handler: RouteHandler<D>;
  /** The route's own error answer (Stripe's errors, a page instead of JSON), before the app's. */
  onError?: ErrorRequestHandler;
}

/** The route's handler for these dependencies. */
export type RouteHandler<D = ServerDeps> = (deps: D) => RequestHandler;

export interface Route<D = ServerDeps> {
  method: HttpMethod;
  path: `/api${string}`;
  /** The route's chain for these dependencies. */
  chain: (deps: D) => (RequestHandler | ErrorRequestHandler)[];
}

/** Declares a route: describes it in the reference now, and mounts it with `mountRoutes`. */
export function defineRoute<D = ServerDeps>(spec: RouteSpec<D>): Route<D> {
  const { method, path, before, after, describeOnly = [], handler, onError, ...doc } = spec;
  const gate = spec.can ? [spec.can].flat() : [];
  const session = doc.auth === 'session' && !path.startsWith(TENANT);
  describeRoute(method, path, {
    ...doc,
    ...(gate.length || doc.permission
      ? { permission: [...gate, ...(doc.permission ? [doc.permission].flat() : [])] }
      : {}),
  });
  const validated = (['params', 'query', 'body'] as const).filter(
    (source) => spec[source] && !describeOnly.includes(source),
  );
  // validate() keeps one input on req.input: a second would hide the first.
  if (validated.length > 1) throw new Error(`${method} ${path}: validate one input, describeOnly the others`);
  return {
    method,
    path,
    chain: (deps) => [
      ...(session ? [auth((deps as Pick<ServerDeps, 'db'>).db)] : []),
      ...(gate.length ? [can(...gate)] : []),
      ...(before?.(deps) ?? []),
      ...validated.map((source) => validate(spec[source] as z.ZodType, source)),
      ...(after?.(deps) ?? []),
      handler(deps),
      ...(onError ? [onError] : []),
    ],
  };
}

/**
 * Mounts declared routes on a router that sits at `prefix` (`/api`, or `/api/t/:tenant` behind the
 * session and tenant check), in the order given.
 */
export function mountRoutes<D>(router: Router, deps: D, prefix: string, routes: Route<D>[]): Router {
  for (const route of routes) {
    if (!route.path.startsWith(prefix)) throw new Error(`${route.path} is not under ${prefix}`);
    router[route.method](route.path.slice(prefix.length) || '/', ...route.chain(deps));
  }
  return router;
}

/** A router of declared routes at `prefix`. */
export const routerOf = <D>(deps: D, prefix: string, routes: Route<D>[]): Router =>
  mountRoutes(Router({ mergeParams: true }), deps, prefix, routes);
