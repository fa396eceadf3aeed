import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { metricsRegistry } from './metrics.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time). */
export function metricsAuthorized(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/**
 * Answers a scrape: 401 without the token (with WWW-Authenticate), else the registry in Prometheus's
 * text format. Shared by the API's GET /metrics and the worker's metrics port.
 */
export async function answerScrape(req: IncomingMessage, res: ServerResponse, token: string): Promise<void> {
  if (!metricsAuthorized(req.headers.authorization, token)) {
    res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="metrics"', 'Content-Type': 'text/plain' });
    res.end('Unauthorized\n');
    return;
  }
  const body = await metricsRegistry.metrics();
  res.writeHead(200, { 'Content-Type': metricsRegistry.contentType, 'Cache-Control': 'no-store' });
  res.end(body);
}

/**
 * The worker's metrics: GET /metrics on its own port (METRICS_PORT, on METRICS_HOST: 127.0.0.1 unless
 * the scraper is elsewhere), with the same token as the API's. Anything else answers 404.
 */
export async function serveMetrics(options: { port: number; host: string; token: string }): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Not found\n');
      return;
    }
    answerScrape(req, res, options.token).catch(() => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('Metrics unavailable\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return server;
}
