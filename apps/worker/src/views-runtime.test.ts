import { randomUUID } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, parseConfig, type Config } from '@helix/server';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { createRedis, type Redis } from '@helix/server/redis';
import { claimPending } from '@helix/server/views/flush-views';
import { recordView } from '@helix/server/views/record-view';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { createWorkerRuntime } from './worker-runtime.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger('silent', 'worker-test');
let database: { name: string; url: string };
let db: Db;
let redis: Redis;
let config: Config;

beforeAll(async () => {
  database = await createTestDatabase('helix_worker_views');
  db = createTestDb(database.url);
  redis = createRedis(REDIS_URL);
  config = parseConfig({
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: `helixtest-${randomBytes(4).toString('hex')}`,
    VIEW_FLUSH_INTERVAL_MS: '200',
  });
});
afterAll(async () => {
  const keys = await redis.keys(`${config.REDIS_PREFIX}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  await db.$disconnect();
  await dropDatabase(database.name);
});

const stored = async (modelId: number) =>
  (await db.modelViewDaily.aggregate({ where: { modelId }, _sum: { count: true } }))._sum.count ?? 0;

describe('the worker and view counts', () => {
  it('applies what a crash left at start, flushes on schedule and flushes the rest at shutdown', async () => {
    const tenant = await db.tenant.create({
      data: { domainPrefix: 'services', name: 'Helix', isPlatform: true },
    });
    const user = await db.user.create({
      data: { tenantId: tenant.id, name: 'A', userName: 'a', email: 'a@example.test' },
    });
    const model = await db.model.create({ data: { name: 'M', urlModelName: 'm' } });
    const ctx = { id: tenant.id, isPlatform: true, subscription: null, branding: null };
    const deps = { db, redis, prefix: config.REDIS_PREFIX };
    const load = () =>
      recordView(deps, ctx, {
        viewer: randomUUID(),
        modelId: model.id,
        viewerKey: `u:${user.id}`,
        source: 'portal',
      });

    // A previous worker took a batch and died before applying it.
    for (let i = 0; i < 3; i += 1) await load();
    expect(await claimPending(deps)).not.toBeNull();

    // The worker's views family, as main.ts starts it (on this test's database client).
    const runtime = createWorkerRuntime(config, logger, { db });
    await runtime.start({ families: ['views'] });
    expect(await stored(model.id)).toBe(3);
    const queue = runtime.queue.queueOf('views');
    expect(await queue.getJobScheduler('flush-views')).toMatchObject({ every: 200 });

    // The scheduled job picks up new loads within a few intervals.
    for (let i = 0; i < 4; i += 1) await load();
    const deadline = Date.now() + 90_000; // a liveness bound, not a speed check
    while ((await stored(model.id)) < 7 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(await stored(model.id)).toBe(7);

    // Loads after the last scheduled run go in with the final flush at shutdown.
    await queue.removeJobScheduler('flush-views');
    for (let i = 0; i < 2; i += 1) await load();
    await runtime.stop();
    expect(await stored(model.id)).toBe(9);
  });
});
