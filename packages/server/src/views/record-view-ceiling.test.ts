import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { createDb, type Db } from '../db.ts';
import { COMMAND_CLIENT_OPTIONS, createRedis, type Redis } from '../redis.ts';
import type { TenantPlanContext } from './allowance.ts';
import { flushViews } from './flush-views.ts';
import { recordView, type ViewDeps, type ViewLoad } from './record-view.ts';

/**
 * The ceiling per address and link (ViewLoad.ceiling), in the counting script and in the path that
 * counts in PostgreSQL while Redis is down: past the ceiling loads are served and not counted, and the
 * views recorded equal the loads counted, exactly.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let database: { name: string; url: string };
let db: Db;
let redis: Redis;
const prefix = `helixtest-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  database = await createTestDatabase('helix_views_ceiling');
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

async function setup(): Promise<{ tenant: TenantPlanContext; modelId: number; userId: number }> {
  const tenant = await db.tenant.create({
    data: { domainPrefix: `ceil${randomBytes(3).toString('hex')}`, name: 'Ceiling', isPlatform: true },
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

const loadOf = (modelId: number, userId: number, scope: string, max: number) => (): ViewLoad => ({
  modelId,
  viewerKey: `u:${userId}`,
  source: 'embed',
  viewer: randomBytes(16).toString('base64url'),
  ceiling: { scope, max, seconds: 3600 },
});

describe('the ceiling per address and link', () => {
  it('in Redis: 100 new viewers from one scope count the ceiling; a counted viewer again counts nothing', async () => {
    const { tenant, modelId, userId } = await setup();
    const deps: ViewDeps = { db, redis, prefix };
    const next = loadOf(modelId, userId, `s${randomBytes(4).toString('hex')}`, 25);
    const loads = Array.from({ length: 100 }, next);
    const answers = await Promise.all(loads.map((load) => recordView(deps, tenant, load)));
    expect(answers.filter((a) => a.counted)).toHaveLength(25);
    // Run again (as settle-later does after a lost answer): nothing more is counted.
    const again = await Promise.all(loads.map((load) => recordView(deps, tenant, load)));
    expect(again.filter((a) => a.counted)).toHaveLength(0);
    // Another scope (another address or link) has its own ceiling.
    const other = loadOf(modelId, userId, `s${randomBytes(4).toString('hex')}`, 25)();
    expect((await recordView(deps, tenant, other)).counted).toBe(true);
    await flushViews(deps, { recover: true });
    expect(await stored(modelId)).toBe(26);
  });

  it('while Redis is down (counted in PostgreSQL): the same ceiling, exactly', async () => {
    const { tenant, modelId, userId } = await setup();
    // A client of a Redis nobody runs: every command fails without being sent.
    const down = createRedis('redis://127.0.0.1:1', { ...COMMAND_CLIENT_OPTIONS, lazyConnect: true });
    down.on('error', () => {}); // refused connections, expected
    try {
      const deps: ViewDeps = { db, redis: down, prefix };
      const next = loadOf(modelId, userId, `s${randomBytes(4).toString('hex')}`, 25);
      const loads = Array.from({ length: 100 }, next);
      const answers = await Promise.all(loads.map((load) => recordView(deps, tenant, load)));
      expect(answers.filter((a) => a.counted)).toHaveLength(25);
      expect(await stored(modelId)).toBe(25);
      const again = await Promise.all(loads.slice(0, 30).map((load) => recordView(deps, tenant, load)));
      expect(again.filter((a) => a.counted)).toHaveLength(0);
      expect(await stored(modelId)).toBe(25);
    } finally {
      down.disconnect();
    }
  });
});
