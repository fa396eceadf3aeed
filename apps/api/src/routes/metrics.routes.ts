import { Router } from 'express';
import type { ServerDeps } from '@helix/server/deps';
import { answerScrape } from '@helix/server/metrics/metrics-endpoint';

/**
 * GET /metrics (beside /api, where a proxy exposes nothing): the process's metrics for a Prometheus
 * scraper holding METRICS_TOKEN. Without METRICS_TOKEN configured the route does not exist (404).
 */
export function metricsRoutes(deps: Pick<ServerDeps, 'config'>): Router {
  const router = Router();
  const token = deps.config.METRICS_TOKEN;
  if (token) {
    router.get('/metrics', (req, res, next) => {
      answerScrape(req, res, token).catch(next);
    });
  }
  return router;
}
