import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';

type Step = RequestHandler | ErrorRequestHandler;
type AppEntry = (req: IncomingMessage, res: ServerResponse, next?: NextFunction) => void;

/**
 * A path the public embed path answers on every page load of every site embedding a model (the share
 * and embed pages, the viewer's model call), served without Express's router: the app's own steps for
 * it, in the order the router would run them, and nothing else.
 */
export interface PublicPath {
  /** The methods it answers (an Express GET route answers HEAD too). */
  methods: readonly string[];
  /** The whole path, without the query: a variant the router also takes (`/API/...`, a trailing slash) goes to it. */
  path: RegExp;
  /** False while it cannot be answered yet (a page whose renderer is still loading): the router serves it then. */
  ready?: () => boolean;
  /** Its middleware and handler, as the app mounts them, then the app's error handler. */
  steps: Step[];
}

const pathOf = (url: string): string => {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
};

/** Runs the steps as Express's router runs a route's stack: next(), next(err), a rejected promise. */
function runSteps(steps: Step[], req: Request, res: Response, done: (err?: unknown) => void): void {
  let at = 0;
  const next: NextFunction = (err?: unknown) => {
    // 'route' and 'router' leave a route in Express: here they leave the public path.
    if (err === 'route' || err === 'router') return done();
    const step = steps[at++];
    if (!step) return done(err);
    // An error goes to the next error handler (four arguments), an answer to the next middleware.
    const handlesErrors = step.length === 4;
    if (err ? !handlesErrors : handlesErrors) return next(err);
    try {
      const result: unknown = err
        ? (step as ErrorRequestHandler)(err, req, res, next)
        : (step as RequestHandler)(req, res, next);
      if (result instanceof Promise) result.catch((e: unknown) => next(e ?? new Error('Rejected promise')));
    } catch (e) {
      next(e);
    }
  };
  next();
}

/**
 * Serves the public paths before Express's router (docs/benchmarks.md, "A lean public path"). The
 * router matches a request against every layer the app has mounted before it reaches a public route
 * (about fifty, with a URL parse and a regular expression each): that walk, not the route's own work,
 * was the largest part of a page load's CPU. A request for a public path gets what the app's entry
 * gives every request (the request and answer objects with Express's methods, the app's settings:
 * trust proxy, JSON escaping) and then its own steps directly; any other request, or a public one the
 * steps pass on (`next()` past the last), goes to the app's router as before.
 */
export function servePublicPathsFirst(app: Express, paths: PublicPath[]): void {
  // express() is `(req, res, next) => app.handle(req, res, next)`: the app's one entry, for a server,
  // a mounting app and supertest alike (untyped in @types/express).
  const entry = app as unknown as { handle: AppEntry };
  const routed = entry.handle.bind(app);
  entry.handle = (incoming, answer, callback) => {
    const method = incoming.method ?? 'GET';
    const path = pathOf(incoming.url ?? '/');
    const match = paths.find((p) => p.methods.includes(method) && p.path.test(path) && (p.ready?.() ?? true));
    if (!match) {
      routed(incoming, answer, callback);
      return;
    }
    // What app.handle and the router set before the first middleware.
    const req = incoming as Request;
    const res = answer as Response;
    if (app.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    res.locals ??= Object.create(null) as Response['locals'];
    req.originalUrl = req.originalUrl || req.url;
    req.baseUrl = '';
    req.params = {};
    runSteps(match.steps, req, res, (err) => {
      if (err) {
        // Past the app's error handler (its answer was already under way): as Express's final
        // handler does, the connection is cut, so the client cannot take a half answer for a whole one.
        req.socket.destroy();
        return;
      }
      routed(req, res, callback);
    });
  };
}
