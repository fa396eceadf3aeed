import type { Router } from 'express';
import { ClientLogRequest } from '@helix/shared';
import type { ServerDeps } from '@helix/server/deps';
import { routeLimiter } from '../http/rate-limit.ts';
import { inputOf } from '../http/validate.ts';
import { noContent } from '../openapi/describe.ts';
import { API, defineRoute, routerOf } from './define-route.ts';

/** The web's global error logger (base call, no session needed: errors happen before login too). */
const clientLog = defineRoute({
  method: 'post',
  path: '/api/logs',
  tag: 'Operations',
  summary: "The web client's error log (60 a minute per address)",
  body: ClientLogRequest,
  limited: true,
  ok: noContent('Logged.'),
  before: (deps) => [routeLimiter(deps, 'client-logs', { limit: 60, windowSeconds: 60 })],
  handler: (deps) => {
    const clientLogger = deps.logger.child({ source: 'web-client' });
    return (req, res) => {
      const { message, error, level } = inputOf(req, ClientLogRequest);
      clientLogger[level]({ clientError: error, userAgent: req.get('user-agent'), reqId: req.id }, message);
      res.status(204).end();
    };
  },
});

export const logsRoutes = (deps: ServerDeps): Router => routerOf(deps, API, [clientLog]);
