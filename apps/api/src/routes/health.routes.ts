import { Router } from 'express';
import type { ServerDeps } from '@helix/server/deps';

/** Each check may take this long (a first query also opens the connection). */
const CHECK_TIMEOUT_MS = 5000;

async function check(probe: () => Promise<unknown>): Promise<'ok' | 'error'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
      }),
    ]);
    return 'ok';
  } catch {
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

/** Liveness (the process answers) and readiness (PostgreSQL and Redis answer). */
export function healthRoutes(deps: Pick<ServerDeps, 'db' | 'redis'>): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/health/ready', async (_req, res) => {
    const [postgres, redis] = await Promise.all([
      check(() => deps.db.$queryRaw`SELECT 1`),
      check(() => deps.redis.ping()),
    ]);
    const ok = postgres === 'ok' && redis === 'ok';
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'error', postgres, redis });
  });
  return router;
}
