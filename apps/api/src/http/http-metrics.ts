import type { Request, RequestHandler } from 'express';
import { httpRequestDuration } from '@helix/server/metrics/metrics';

/** A tenant call's path names its tenant: the pattern is the label, never the id. */
const TENANT_BASE = /^\/api\/t\/[^/]+/;

/**
 * The route a request matched, as its pattern (`/api/t/:tenant/user/invite`), so the label's values stay
 * few: a call no route matched is `unmatched`, a web page or asset is `web`.
 */
export function routeLabel(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  if (route && typeof route.path === 'string') {
    return `${(req.baseUrl ?? '').replace(TENANT_BASE, '/api/t/:tenant')}${route.path}`;
  }
  return (req.originalUrl ?? req.url ?? '').startsWith('/api/') ? 'unmatched' : 'web';
}

type Series = ReturnType<typeof httpRequestDuration.labels>;

/** Each series' handle, made once: observing through it skips hashing a label object per request. */
const series = new Map<string, Series>();

const seriesOf = (method: string, route: string, status: number): Series => {
  const key = `${method} ${status} ${route}`;
  let one = series.get(key);
  if (!one) {
    one = httpRequestDuration.labels({ method, route, status });
    series.set(key, one);
  }
  return one;
};

/**
 * helix_http_request_duration_seconds by method, route pattern and status, once the answer is sent.
 * `route`: the label of a path served without the router (public-path.ts), which no req.route names.
 */
export function httpMetrics(route?: string): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const seconds = (performance.now() - started) / 1000;
      seriesOf(req.method, route ?? routeLabel(req), res.statusCode).observe(seconds);
    });
    next();
  };
}
