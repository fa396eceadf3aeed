import { Router } from 'express';
import { ClientLogRequest } from '@helix/shared';
import type { ServerDeps } from '@helix/server/deps';
import { routeLimiter } from '../http/rate-limit.ts';
import { inputOf, validate } from '../http/validate.ts';

/** The web's global error logger (base call, no session needed: errors happen before login too). */
export function logsRoutes(deps: ServerDeps): Router {
  const router = Router();
  const limit = routeLimiter(deps, 'client-logs', { limit: 60, windowSeconds: 60 });
  const clientLogger = deps.logger.child({ source: 'web-client' });
  router.post('/logs', limit, validate(ClientLogRequest), (req, res) => {
    const { message, error, level } = inputOf(req, ClientLogRequest);
    clientLogger[level]({ clientError: error, userAgent: req.get('user-agent'), reqId: req.id }, message);
    res.status(204).end();
  });
  return router;
}
