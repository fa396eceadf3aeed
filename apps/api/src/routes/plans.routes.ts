import type { Router } from 'express';
import { z } from 'zod';
import { PlanView } from '@helix/shared/schemas/plan';
import type { ServerDeps } from '@helix/server/deps';
import { listGuestPlans, listTenantPlans } from '@helix/server/plans/list-plans.query';
import { actorOf } from '../http/auth.ts';
import { NoQuery } from '../http/validate.ts';
import { API, defineRoute, routerOf, TENANT } from './define-route.ts';

/** The plan catalogue for guests (sign-up wizard, /subscription/plans). */
const guestPlans = defineRoute({
  method: 'get',
  path: '/api/guest/subscription/list',
  tag: 'Plans',
  summary: 'The plan catalogue (no login)',
  query: NoQuery,
  ok: z.array(PlanView),
  handler: (deps) => async (_req, res) => {
    res.json(await listGuestPlans(deps.db));
  },
});

/**
 * The catalogue for a signed-in user, with isSubscribed on the tenant's plan. Needs only a session:
 * every user of an unsubscribed tenant is sent to the plan page (accounts 4), and the list is public.
 */
const tenantPlans = defineRoute({
  method: 'get',
  path: '/api/t/:tenant/subscriptionplan/all',
  tag: 'Plans',
  summary: "The plan catalogue with isSubscribed on the tenant's plan",
  query: NoQuery,
  ok: z.array(PlanView),
  handler: (deps) => async (req, res) => {
    res.json(await listTenantPlans(deps.db, actorOf(req)));
  },
});

export const planRoutes = (deps: ServerDeps): Router => routerOf(deps, API, [guestPlans]);
export const planTenantRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, [tenantPlans]);
