import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { createDb, type Db } from '../db.ts';
import { createRedis, type Redis } from '../redis.ts';
import { flushViews } from './flush-views.ts';
import { recordView, type ViewDeps } from './record-view.ts';
import { viewCommands } from './view-store.ts';
import type { TenantPlanContext } from './allowance.ts';

/**
 * The counting script sent, then the connection lost before its answer: Redis may or may not have
 * counted the load. Either way the load is served and ends counted exactly once (settle-later.ts).
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let database: { name: string; url: string };
let db: Db;
let redis: Redis;
const prefix = `helixtest-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  database = await createTestDatabase('helix_views_lost');
  db = createDb(database.url);
  redis = createRedis(REDIS_URL);
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  await db.$disconnect();
  await dropDatabase(database.name);
});

/** A Redis client whose first counting script loses its answer: after running (`ran`) or before. */
function losingFirstAnswer(ran: boolean): Redis {
  const client = viewCommands(createRedis(REDIS_URL));
  const real = client.helixCountView.bind(client);
  let lost = false;
  client.helixCountView = (async (...args: Parameters<typeof real>) => {
    if (lost) return real(...args);
    lost = true;
    if (ran) await real(...args);
    throw new Error('Connection is closed.');
  }) as typeof real;
  return client;
}

async function setup(): Promise<{ tenant: TenantPlanContext; modelId: number; userId: number }> {
  const tenant = await db.tenant.create({
    data: { domainPrefix: `lost${randomBytes(3).toString('hex')}`, name: 'Lost', isPlatform: true },
  });
  const name = `u${randomBytes(4).toString('hex')}`;
  const user = await db.user.create({
    data: { tenantId: tenant.id, name: 'U', userName: name, email: `${name}@example.test` },
  });
  const model = await db.model.create({
    data: { name: 'M', urlModelName: `m-${randomBytes(4).toString('hex')}` },
  });
  return {
    tenant: { id: tenant.id, isPlatform: true, subscription: null, branding: null },
    modelId: model.id,
    userId: user.id,
  };
}

const stored = async (modelId: number) =>
  (await db.modelViewDaily.aggregate({ where: { modelId }, _sum: { count: true } }))._sum.count ?? 0;

async function settled(deps: ViewDeps, modelId: number, expected: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await flushViews(deps);
    const count = await stored(modelId);
    if (count === expected || Date.now() > deadline) return count;
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('a view whose counting answer was lost', () => {
  it.each([
    ['Redis ran the script', true],
    ['Redis never ran it', false],
  ])('is served and counted exactly once (%s)', async (_label, ran) => {
    const { tenant, modelId, userId } = await setup();
    const client = losingFirstAnswer(ran);
    const deps: ViewDeps = { db, redis: client, prefix };
    const load = { viewer: randomUUID(), modelId, viewerKey: `u:${userId}`, source: 'embed' as const };
    await expect(recordView(deps, tenant, load)).resolves.toMatchObject({ counted: true });
    expect(await settled(deps, modelId, 1)).toBe(1);
    // Nothing more arrives later (the settle ran once and the script's viewer key held it).
    await new Promise((r) => setTimeout(r, 1500));
    await flushViews(deps);
    expect(await stored(modelId)).toBe(1);
    client.disconnect();
  });
});
