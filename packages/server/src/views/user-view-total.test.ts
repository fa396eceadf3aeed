import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db.ts';
import { withTransaction } from '../db/transaction.ts';
import { createViewBed, type ViewBed } from '../testing/view-bed.ts';
import { addViewRows, flushViews } from './flush-views.ts';
import { recordView, type ViewDeps } from './record-view.ts';

/**
 * User.viewTotal (migration 20261127040410_user_view_total, docs/lists-at-scale.md): the database keeps
 * each user's running total of views of live models in the same transaction as every ModelViewDaily
 * write; it must always equal the sum it stands for.
 */
let bed: ViewBed;
let db: Db;
let deps: ViewDeps;

beforeAll(async () => {
  bed = await createViewBed('helix_view_total');
  db = bed.db;
  deps = { db, redis: bed.redis, prefix: bed.prefix };
});
afterAll(() => bed?.close());

/** Users whose running total differs from the sum of their ModelViewDaily rows of live models. */
const drift = () =>
  db.$queryRaw<{ id: number; viewTotal: number; sum: bigint }[]>`
    SELECT u.id, u."viewTotal", COALESCE(s.sum, 0) AS sum FROM "User" u
    LEFT JOIN (SELECT v."userId", SUM(v.count) AS sum FROM "ModelViewDaily" v
               JOIN "Model" m ON m.id = v."modelId" AND m."deletedAt" IS NULL GROUP BY v."userId") s
      ON s."userId" = u.id
    WHERE u."viewTotal" <> COALESCE(s.sum, 0)`;

const totalOf = async (userId: number) =>
  (await db.user.findUniqueOrThrow({ where: { id: userId }, select: { viewTotal: true } })).viewTotal;

async function world() {
  const { tenant, modelId, userId } = await bed.setup();
  const more = await Promise.all(
    [1, 2, 3].map((i) =>
      db.user.create({
        data: {
          tenantId: tenant.id,
          name: `V${i}`,
          userName: `v${i}${randomUUID().slice(0, 8)}`,
          email: `v${i}-${randomUUID()}@example.test`,
        },
      }),
    ),
  );
  const models = [
    modelId,
    ...(
      await Promise.all(
        [1, 2].map((i) =>
          db.model.create({ data: { name: `M${i}`, urlModelName: `m${i}-${randomUUID()}` } }),
        ),
      )
    ).map((m) => m.id),
  ];
  return { tenant, users: [userId, ...more.map((u) => u.id)], models };
}

describe('User.viewTotal, the running total of views of live models', () => {
  it('equals the sum of ModelViewDaily after loads flushed by concurrent flushes', async () => {
    const { tenant, users, models } = await world();
    const loads = Array.from({ length: 240 }, (_, i) =>
      recordView(deps, tenant, {
        viewer: randomUUID(),
        modelId: models[i % models.length]!,
        viewerKey: `u:${users[i % users.length]}`,
        source: 'portal',
      }),
    );
    const flushes = Array.from({ length: 6 }, () => flushViews(deps));
    await Promise.all([...loads, ...flushes]);
    await flushViews(deps);
    expect(await drift()).toEqual([]);
    const sum = await db.modelViewDaily.aggregate({
      where: { userId: { in: users } },
      _sum: { count: true },
    });
    const totals = await db.user.aggregate({ where: { id: { in: users } }, _sum: { viewTotal: true } });
    expect(sum._sum.count).toBe(240);
    expect(totals._sum.viewTotal).toBe(240);
  });

  it('stays exact under concurrent transactions adding to the same users in opposite orders', async () => {
    const { tenant, users, models } = await world();
    const day = new Date().toISOString().slice(0, 10);
    const entry = (user: number, model: number, count: number) => ({
      modelId: model,
      tenantId: tenant.id,
      day,
      viewerKey: `u:${user}`,
      source: 'portal' as const,
      count,
    });
    // Each transaction touches every user (new rows first, then the same rows again: updates).
    await Promise.all(
      Array.from({ length: 12 }, (_, t) =>
        withTransaction(db, async (tx) => {
          const order = t % 2 ? [...users].reverse() : users;
          await addViewRows(
            tx,
            order.map((u, i) => entry(u, models[(i + t) % models.length]!, 1 + (t % 3))),
          );
        }),
      ),
    );
    expect(await drift()).toEqual([]);
    const expected = Array.from({ length: 12 }, (_, t) => (1 + (t % 3)) * users.length).reduce(
      (a, b) => a + b,
    );
    const totals = await db.user.aggregate({ where: { id: { in: users } }, _sum: { viewTotal: true } });
    expect(totals._sum.viewTotal).toBe(expected);
  });

  it('leaves out a deleted model (soft or hard) and takes a restored one back', async () => {
    const { tenant, users, models } = await world();
    const day = new Date().toISOString().slice(0, 10);
    const [user] = users;
    await addViewRows(db, [
      { modelId: models[0]!, tenantId: tenant.id, day, viewerKey: `u:${user}`, source: 'portal', count: 5 },
      { modelId: models[1]!, tenantId: tenant.id, day, viewerKey: `u:${user}`, source: 'embed', count: 3 },
      { modelId: models[2]!, tenantId: tenant.id, day, viewerKey: `u:${user}`, source: 'portal', count: 2 },
    ]);
    expect(await totalOf(user!)).toBe(10);
    await db.model.update({ where: { id: models[0]! }, data: { deletedAt: new Date() } });
    expect(await totalOf(user!)).toBe(5);
    // Views flushed for a model deleted in the meantime are dropped by the flush; none are counted.
    await addViewRows(db, [
      { modelId: models[0]!, tenantId: tenant.id, day, viewerKey: `u:${user}`, source: 'portal', count: 4 },
    ]);
    expect(await totalOf(user!)).toBe(5);
    await db.model.update({ where: { id: models[0]! }, data: { deletedAt: null } });
    expect(await totalOf(user!)).toBe(14);
    await db.model.delete({ where: { id: models[1]! } });
    expect(await totalOf(user!)).toBe(11);
    await db.modelViewDaily.deleteMany({ where: { modelId: models[2]! } });
    expect(await totalOf(user!)).toBe(9);
    expect(await drift()).toEqual([]);
  });

  it('moves views with their row when a user is deleted (the rows are unlinked)', async () => {
    const { tenant, users, models } = await world();
    const day = new Date().toISOString().slice(0, 10);
    const [a, b] = users;
    await addViewRows(db, [
      { modelId: models[0]!, tenantId: tenant.id, day, viewerKey: `u:${a}`, source: 'portal', count: 6 },
      { modelId: models[0]!, tenantId: tenant.id, day, viewerKey: `u:${b}`, source: 'portal', count: 1 },
    ]);
    await db.user.delete({ where: { id: a! } });
    expect(await totalOf(b!)).toBe(1);
    expect(await drift()).toEqual([]);
  });
});
