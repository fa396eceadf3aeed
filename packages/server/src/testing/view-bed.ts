import { randomBytes } from 'node:crypto';
import { createTestDatabase, createTestDb, dropDatabase } from '@helix/server/testing/test-db';
import type { Db } from '../db.ts';
import { createRedis, type Redis } from '../redis.ts';
import type { TenantPlanContext } from '../views/allowance.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * What the view-counting tests share: a migrated database of their own, Redis under a key prefix of
 * their own, a platform tenant with a user and a model to count views of, and the stored count.
 */
export interface ViewBed {
  db: Db;
  redis: Redis;
  prefix: string;
  /** A fresh tenant (platform: no limit), user and model. */
  setup(): Promise<{ tenant: TenantPlanContext; modelId: number; userId: number }>;
  /** The model's views in ModelViewDaily. */
  stored(modelId: number): Promise<number>;
  close(): Promise<void>;
}

export async function createViewBed(name: string): Promise<ViewBed> {
  const database = await createTestDatabase(name);
  const db = createTestDb(database.url);
  const redis = createRedis(REDIS_URL);
  const prefix = `helixtest-${randomBytes(4).toString('hex')}`;
  const unique = () => randomBytes(4).toString('hex');
  return {
    db,
    redis,
    prefix,
    async setup() {
      const tenant = await db.tenant.create({
        data: { domainPrefix: `views${unique()}`, name: 'Views', isPlatform: true },
      });
      const userName = `u${unique()}`;
      const user = await db.user.create({
        data: { tenantId: tenant.id, name: 'U', userName, email: `${userName}@example.test` },
      });
      const model = await db.model.create({ data: { name: 'M', urlModelName: `m-${unique()}` } });
      return {
        tenant: { id: tenant.id, isPlatform: true, subscription: null, branding: null },
        modelId: model.id,
        userId: user.id,
      };
    },
    async stored(modelId) {
      const sum = await db.modelViewDaily.aggregate({ where: { modelId }, _sum: { count: true } });
      return sum._sum.count ?? 0;
    },
    async close() {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await db.$disconnect();
      await dropDatabase(database.name);
    },
  };
}
