import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db.ts';
import { withTransaction } from '../db/transaction.ts';
import { modelViewCounts, topTenantsByModel } from '../models/model-stats.query.ts';
import { createViewBed, type ViewBed } from '../testing/view-bed.ts';
import { addViewRows, flushViews } from './flush-views.ts';
import { recordView, type ViewDeps } from './record-view.ts';

/**
 * Model.viewTotal and ModelTenantView (migrations 20261127053339_model_view_total and
 * 20261127053842_model_tenant_views, docs/lists-at-scale.md): the database keeps each model's running
 * total of views (every tenant's, every day's) and each model's views per tenant in the same
 * transaction as every ModelViewDaily write; they must always equal the sums they stand for, which
 * the platform's model grid and the Statistics cards' top tenants computed before.
 */
let bed: ViewBed;
let db: Db;
let deps: ViewDeps;

beforeAll(async () => {
  bed = await createViewBed('helix_model_view_total');
  db = bed.db;
  deps = { db, redis: bed.redis, prefix: bed.prefix };
});
afterAll(() => bed?.close());

/** Models whose running total differs from the sum of their ModelViewDaily rows. */
const drift = () =>
  db.$queryRaw<{ id: number; viewTotal: number; sum: bigint }[]>`
    SELECT m.id, m."viewTotal", COALESCE(s.sum, 0) AS sum FROM "Model" m
    LEFT JOIN (SELECT v."modelId", SUM(v.count) AS sum FROM "ModelViewDaily" v GROUP BY v."modelId") s
      ON s."modelId" = m.id
    WHERE m."viewTotal" <> COALESCE(s.sum, 0)`;

/** (model, tenant) pairs whose ModelTenantView row differs from the sum of their ModelViewDaily rows. */
const tenantDrift = () =>
  db.$queryRaw<{ modelId: number; tenantId: number }[]>`
    SELECT COALESCE(t."modelId", s."modelId") AS "modelId", COALESCE(t."tenantId", s."tenantId") AS "tenantId"
    FROM "ModelTenantView" t
    FULL JOIN (SELECT v."modelId", v."tenantId", SUM(v.count) AS sum FROM "ModelViewDaily" v
               GROUP BY v."modelId", v."tenantId") s
      ON s."modelId" = t."modelId" AND s."tenantId" = t."tenantId"
    WHERE COALESCE(t.views, 0) <> COALESCE(s.sum, 0)`;

const totalOf = async (modelId: number) =>
  (await db.model.findUniqueOrThrow({ where: { id: modelId }, select: { viewTotal: true } })).viewTotal;

async function world() {
  const { tenant, modelId, userId } = await bed.setup();
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
  return { tenant, userId, models };
}

describe('Model.viewTotal, the running total of each model views', () => {
  it('equals the sum of ModelViewDaily after loads flushed by concurrent flushes', async () => {
    const { tenant, userId, models } = await world();
    const loads = Array.from({ length: 240 }, (_, i) =>
      recordView(deps, tenant, {
        viewer: randomUUID(),
        modelId: models[i % models.length]!,
        viewerKey: i % 2 ? `u:${userId}` : `a:${i}`,
        source: 'portal',
      }),
    );
    const flushes = Array.from({ length: 6 }, () => flushViews(deps));
    await Promise.all([...loads, ...flushes]);
    await flushViews(deps);
    expect(await drift()).toEqual([]);
    expect(await tenantDrift()).toEqual([]);
    const totals = await db.model.aggregate({ where: { id: { in: models } }, _sum: { viewTotal: true } });
    const sum = await db.modelViewDaily.aggregate({
      where: { modelId: { in: models } },
      _sum: { count: true },
    });
    expect(sum._sum.count).toBeGreaterThan(0);
    expect(totals._sum.viewTotal).toBe(sum._sum.count);
    // The grid's figures (every tenant's) read the totals and equal the per-model sums.
    const counts = await modelViewCounts(deps, [], models, null);
    for (const id of models) {
      const sum = await db.modelViewDaily.aggregate({ where: { modelId: id }, _sum: { count: true } });
      expect(counts.get(id) ?? 0).toBe(sum._sum.count ?? 0);
    }
  });

  it('stays exact under concurrent transactions adding to the same models in opposite orders', async () => {
    const { tenant, models } = await world();
    const day = new Date().toISOString().slice(0, 10);
    await Promise.all(
      Array.from({ length: 12 }, (_, t) =>
        withTransaction(db, async (tx) => {
          const order = t % 2 ? [...models].reverse() : models;
          await addViewRows(
            tx,
            order.map((modelId, i) => ({
              modelId,
              tenantId: tenant.id,
              day,
              viewerKey: `a:${i}`,
              source: 'portal' as const,
              count: 1 + (t % 3),
            })),
          );
        }),
      ),
    );
    expect(await drift()).toEqual([]);
    expect(await tenantDrift()).toEqual([]);
    const expected = Array.from({ length: 12 }, (_, t) => (1 + (t % 3)) * models.length).reduce(
      (a, b) => a + b,
    );
    const totals = await db.model.aggregate({ where: { id: { in: models } }, _sum: { viewTotal: true } });
    expect(totals._sum.viewTotal).toBe(expected);
  });

  it('ranks each model top tenants as the sums of their view-days do (views, then id)', async () => {
    const { tenant, models } = await world();
    // One after the other: others[0] gets the lower id (the tie below is broken by id).
    const others = [];
    for (const i of [1, 2]) {
      others.push(
        await db.tenant.create({
          data: { name: `T${i} ${randomUUID()}`, domainPrefix: `t${i}${randomUUID().slice(0, 8)}` },
        }),
      );
    }
    const day = new Date().toISOString().slice(0, 10);
    const row = (tenantId: number, count: number, viewerKey: string) => ({
      modelId: models[0]!,
      tenantId,
      day,
      viewerKey,
      source: 'portal' as const,
      count,
    });
    await addViewRows(db, [
      row(tenant.id, 2, 'a:1'),
      row(others[0]!.id, 4, 'a:2'),
      row(others[1]!.id, 3, 'a:3'),
      row(others[1]!.id, 1, 'a:4'),
    ]);
    const top = (await topTenantsByModel(deps, [], [models[0]!], 2)).get(models[0]!)!;
    // others[0] and others[1] both have 4: the lower id first; the school (2) is left out.
    expect(top.map((t) => [t.tenant_id, t.tenant_views])).toEqual([
      [others[0]!.id, 4],
      [others[1]!.id, 4],
    ]);
    // Views still buffered in Redis for the school lift it into the top.
    const pending = [row(tenant.id, 3, 'a:5')];
    const withPending = (await topTenantsByModel(deps, pending, [models[0]!], 2)).get(models[0]!)!;
    expect(withPending.map((t) => [t.tenant_id, t.tenant_views])).toEqual([
      [tenant.id, 5],
      [others[0]!.id, 4],
    ]);
    await db.tenant.delete({ where: { id: others[0]!.id } });
    expect(await tenantDrift()).toEqual([]);
  });

  it('keeps a model total across delete and restore, and follows deleted rows', async () => {
    const { tenant, userId, models } = await world();
    const day = new Date().toISOString().slice(0, 10);
    const row = (modelId: number, count: number, viewerKey = `u:${userId}`) => ({
      modelId,
      tenantId: tenant.id,
      day,
      viewerKey,
      source: 'portal' as const,
      count,
    });
    await addViewRows(db, [row(models[0]!, 5), row(models[0]!, 2, 'a:1'), row(models[1]!, 3)]);
    expect(await totalOf(models[0]!)).toBe(7);
    await db.model.update({ where: { id: models[0]! }, data: { deletedAt: new Date() } });
    expect(await totalOf(models[0]!)).toBe(7);
    await db.model.update({ where: { id: models[0]! }, data: { deletedAt: null } });
    expect(await totalOf(models[0]!)).toBe(7);
    await db.modelViewDaily.deleteMany({ where: { modelId: models[0]!, viewerKey: 'a:1' } });
    expect(await totalOf(models[0]!)).toBe(5);
    // A user deleted: its rows are unlinked, their views stay the model's.
    await db.user.delete({ where: { id: userId } });
    expect(await totalOf(models[0]!)).toBe(5);
    // A model removed for good takes its rows with it; the others keep theirs.
    await db.model.delete({ where: { id: models[1]! } });
    expect(await totalOf(models[0]!)).toBe(5);
    expect(await drift()).toEqual([]);
    expect(await tenantDrift()).toEqual([]);
  });
});
