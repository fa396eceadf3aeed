import type { Router } from 'express';
import { z } from 'zod';
import type { ServerDeps } from '@helix/server/deps';
import type { DependencyOutage } from '@helix/server/health/dependency-outage';
import { watchDatabase } from '@helix/server/health/watch-database';
import { watchRedis } from '@helix/server/redis';
import type { Draining } from '../http/draining.ts';
import { component } from '../openapi/describe.ts';
import { API, defineRoute, routerOf, type RouteHandler } from './define-route.ts';

/**
 * Each check may take this long, and they run in parallel: the readiness answer comes within about
 * half a second whatever is down (a load balancer's probe must not hang on an outage).
 */
const CHECK_TIMEOUT_MS = 400;

const TIMED_OUT = Symbol('timed out');

/**
 * 'ok' or 'error' within CHECK_TIMEOUT_MS. A failure is reported to the dependency's outage; a slow
 * answer is not (a busy machine is not an outage: requests that really wait report it themselves).
 */
async function check(probe: () => Promise<unknown>, outage: DependencyOutage): Promise<'ok' | 'error'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = await Promise.race([
      probe(),
      new Promise((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), CHECK_TIMEOUT_MS);
      }),
    ]);
    if (answer === TIMED_OUT) return 'error';
    outage.recovered();
    return 'ok';
  } catch (error) {
    outage.failed(error);
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

const Health = component('Health', z.object({ status: z.literal('ok') }));
const Readiness = component(
  'Readiness',
  z.union([
    z.object({
      status: z.enum(['ok', 'error']),
      postgres: z.enum(['ok', 'error']),
      redis: z.enum(['ok', 'error']),
    }),
    z.object({ status: z.literal('draining') }),
  ]),
);

interface Health {
  deps: Pick<ServerDeps, 'db' | 'redis'>;
  draining?: Draining;
  outages: { postgres: DependencyOutage; redis: DependencyOutage };
}

const liveness = defineRoute<Health>({
  method: 'get',
  path: '/api/health',
  tag: 'Operations',
  summary: 'Liveness: the process answers',
  ok: Health,
  handler: () => (_req, res) => {
    res.json({ status: 'ok' });
  },
});

const ready: RouteHandler<Health> =
  ({ deps, draining, outages }) =>
  async (_req, res) => {
    if (draining?.active) {
      res.set('Retry-After', '5');
      res.status(503).json({ status: 'draining' });
      return;
    }
    const [postgres, redis] = await Promise.all([
      check(() => deps.db.$queryRaw`SELECT 1`, outages.postgres),
      // A client that is not connected fails at once (no offline queue): no need to wait for it.
      check(
        () =>
          deps.redis.status === 'ready' ? deps.redis.ping() : Promise.reject(new Error(deps.redis.status)),
        outages.redis,
      ),
    ]);
    const ok = postgres === 'ok' && redis === 'ok';
    if (!ok) res.set('Retry-After', '5');
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'error', postgres, redis });
  };
const readyAnswers = [
  Readiness,
  { status: 503, schema: Readiness, description: 'Not ready (Retry-After: 5).' },
];

const readiness = [
  defineRoute<Health>({
    method: 'get',
    path: '/api/health/ready',
    tag: 'Operations',
    summary: 'Readiness: PostgreSQL and Redis answer and the process is not draining',
    ok: readyAnswers,
    handler: ready,
  }),
  defineRoute<Health>({
    method: 'get',
    path: '/api/ready',
    tag: 'Operations',
    summary: 'Readiness (alias of /api/health/ready)',
    ok: readyAnswers,
    handler: ready,
  }),
];

/**
 * Liveness (the process answers) and readiness (PostgreSQL and Redis answer, and the process is not
 * draining before a stop): /api/health/ready, also as /api/ready. An outage seen here is logged once
 * (the dependency's DependencyOutage), not per probe.
 */
export function healthRoutes(deps: Pick<ServerDeps, 'db' | 'redis' | 'logger'>, draining?: Draining): Router {
  const outages = {
    postgres: watchDatabase(deps.db, deps.logger),
    redis: watchRedis(deps.redis, deps.logger),
  };
  return routerOf<Health>({ deps, draining, outages }, API, [liveness, ...readiness]);
}
