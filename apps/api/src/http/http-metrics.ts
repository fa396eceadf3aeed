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

/** helix_http_request_duration_seconds by method, route pattern and status, once the answer is sent. */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const stop = httpRequestDuration.startTimer();
    res.once('finish', () => stop({ method: req.method, route: routeLabel(req), status: res.statusCode }));
    next();
  };
}
