import type { EmbedFixture } from '../../test/embed-fixture.ts';
import { startWorkerProcess } from '../../test/worker-process.ts';
import { startApiProcess, type ApiProcess } from './api-process.ts';
import { VIEWER_ORIGIN } from './paced-loads.ts';

export type WorkerProcess = Awaited<ReturnType<typeof startWorkerProcess>>;

/**
 * The real API and worker processes the outage cases load, on the given PostgreSQL and Redis (mail
 * goes nowhere). The embed rate limits and the ceiling of views per address and link are raised:
 * every load comes from one address, for one link.
 */
export async function startOutageProcesses(options: {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  fixture: EmbedFixture;
}): Promise<{ api: ApiProcess; worker: WorkerProcess }> {
  const env = {
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    REDIS_PREFIX: options.redisPrefix,
    SMTP_URL: 'smtp://127.0.0.1:9',
    PUBLIC_URL: 'http://127.0.0.1',
  };
  const api = await startApiProcess({
    ...env,
    STORAGE_DIR: options.fixture.storageDir,
    VIEWER_URL: VIEWER_ORIGIN,
    EMBED_RATE_LIMIT_MAX: '100000000',
    EMBED_TOKEN_RATE_LIMIT_MAX: '100000000',
    VIEWS_PER_ADDRESS_PER_HOUR: '1000000',
    VIEWS_PER_TENANT_ADDRESS_PER_HOUR: '1000000',
  });
  try {
    return { api, worker: await startWorkerProcess(env) };
  } catch (error) {
    await api.kill();
    throw error;
  }
}
