import { Router } from 'express';
import type { ServerDeps } from '@helix/server/deps';
import { listGuestPlans, listTenantPlans } from '@helix/server/plans/list-plans.query';
import { actorOf } from '../http/auth.ts';
import { NoQuery, validate } from '../http/validate.ts';

/** The plan catalogue for guests (sign-up wizard, /subscription/plans). */
export function planRoutes(deps: ServerDeps): Router {
  const router = Router();
  router.get('/guest/subscription/list', validate(NoQuery, 'query'), async (_req, res) => {
    res.json(await listGuestPlans(deps.db));
  });
  return router;
}

/**
 * The catalogue for a signed-in user, with isSubscribed on the tenant's plan. Needs only a session:
 * every user of an unsubscribed tenant is sent to the plan page (accounts 4), and the list is public.
 */
export function planTenantRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });
  router.get('/subscriptionplan/all', validate(NoQuery, 'query'), async (req, res) => {
    res.json(await listTenantPlans(deps.db, actorOf(req)));
  });
  return router;
}
