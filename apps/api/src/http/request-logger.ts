import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from 'pino';

/**
 * Query parameters that carry secrets (OAuth code and state, tokens, the viewer's ticket or embed token
 * in `subscription`, file URL signatures) are never logged.
 */
const SECRET_QUERY = /^(code|state|token|apiToken|password|access_token|id_token|subscription|sig)$/i;

export function scrubUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  for (const key of [...params.keys()]) if (SECRET_QUERY.test(key)) params.set(key, '[redacted]');
  return `${url.slice(0, at)}?${params.toString()}`;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * One structured line per request. Bodies and headers are not logged at all (only method, URL with
 * secrets scrubbed, status, time and the user agent), so passwords and tokens cannot end up there.
 */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    autoLogging: { ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/api/health') },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    serializers: {
      req: (req: {
        id: string;
        method: string;
        url: string;
        headers: Record<string, string | undefined>;
        remoteAddress?: string;
      }) => ({
        id: req.id,
        method: req.method,
        url: scrubUrl(req.url),
        userAgent: req.headers['user-agent'],
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  }) as unknown as RequestHandler;
}
