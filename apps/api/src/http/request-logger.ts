import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Level, Logger } from 'pino';
import { runInRequest } from '@helix/server/request-context';

/**
 * Query parameters that carry secrets (OAuth code and state, tokens, the viewer's ticket or embed token
 * in `subscription`, file URL signatures) are never logged.
 */
const SECRET_QUERY = /^(code|state|token|apiToken|password|access_token|id_token|subscription|sig)$/i;

/** The web pages /share/{token} and /embed/{token} carry an embed token in their path. */
const SECRET_PATH = /^(\/(?:share|embed)\/)[^/?#]+/i;

export function scrubUrl(url: string): string {
  const at = url.indexOf('?');
  const path = (at < 0 ? url : url.slice(0, at)).replace(SECRET_PATH, '$1[redacted]');
  if (at < 0) return path;
  const params = new URLSearchParams(url.slice(at + 1));
  for (const key of [...params.keys()]) if (SECRET_QUERY.test(key)) params.set(key, '[redacted]');
  return `${path}?${params.toString()}`;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Not logged at all: the load balancer's health checks. */
const UNLOGGED = /^\/api\/health(?:[/?]|$)/;

/**
 * The public embed path (the embed detail call, the viewer's model load, the signed .glb and the
 * public images): one line per page load of every site embedding a model would be most of the log,
 * so their successful answers are logged at debug; their 4xx (warn) and 5xx (error) stay.
 */
const QUIET = /^\/api\/(?:model\/embed\/detail|viewer\/model|files\/(?:models|images)\/)/;

interface RequestLine {
  id: string;
  method: string;
  url: string;
  userAgent: string | undefined;
  remoteAddress: string | undefined;
}

const lineOf = (req: Request, id: string): RequestLine => ({
  id,
  method: req.method,
  url: scrubUrl(req.originalUrl),
  userAgent: req.headers['user-agent'],
  remoteAddress: req.socket.remoteAddress,
});

/**
 * A 503 is "try later": an outage (logged once by its watcher when it starts and ends), a draining
 * process or a conflict that outlasted its retries; each is a warn line without a stack, not an error.
 */
const isTryLater = (statusCode: number) => statusCode === 503;

export function levelOf(url: string, statusCode: number): Level {
  if (isTryLater(statusCode)) return 'warn';
  if (statusCode >= 500) return 'error';
  if (statusCode >= 400) return 'warn';
  return QUIET.test(url) ? 'debug' : 'info';
}

/**
 * One structured line per request, when the response is finished (or the connection closed first):
 * `{ req: { id, method, url, userAgent, remoteAddress }, res: { statusCode }, responseTime }`, 'request
 * completed' ('request errored' with an `err` for a 5xx). Bodies (the embed detail call's token among
 * them) and headers are not logged at all, and secrets in the query and the embed token in the path of
 * /share/{token} and /embed/{token} are scrubbed, so passwords and tokens cannot end up there. `req.log` is a logger
 * carrying the same `req` fields, made on first use (most requests never log anything else), and
 * nothing is serialised for a line whose level is off: logging costs the hot path next to nothing.
 */
export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      enumerable: false,
      get: () => (child ??= logger.child({ req: lineOf(req, id) })),
    });
    if (UNLOGGED.test(req.originalUrl)) {
      next();
      return;
    }
    const started = Date.now();
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      const level = levelOf(req.originalUrl, res.statusCode);
      if (!logger.isLevelEnabled(level)) return;
      const line = {
        req: lineOf(req, id),
        res: { statusCode: res.statusCode },
        responseTime: Date.now() - started,
      };
      if (res.statusCode >= 500 && !isTryLater(res.statusCode)) {
        logger[level](
          { ...line, err: new Error(`failed with status code ${res.statusCode}`) },
          'request errored',
        );
      } else {
        logger[level](line, 'request completed');
      }
    };
    res.once('finish', done);
    res.once('close', done);
    // Everything the request does (its log lines, the jobs it enqueues) carries its id.
    runInRequest({ requestId: id }, next);
  };
}
