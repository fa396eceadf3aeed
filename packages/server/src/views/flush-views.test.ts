import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db.ts';
import type { Redis } from '../redis.ts';
import { createViewBed, type ViewBed } from '../testing/view-bed.ts';
import { applyBatch, claimPending, flushViews } from './flush-views.ts';
import { periodViewCount, recordView, type ViewDeps } from './record-view.ts';
import { viewKeys } from './view-store.ts';
import { billingPeriod, type TenantPlanContext } from './allowance.ts';

let bed: ViewBed;
let db: Db;
let redis: Redis;
let deps: ViewDeps;
let prefix: string;

beforeAll(async () => {
  bed = await createViewBed('helix_views');
  ({ db, redis, prefix } = bed);
  deps = { db, redis, prefix };
});
afterAll(() => bed?.close());

const setup = () => bed.setup();
const stored = (modelId: number) => bed.stored(modelId);

describe('view counting and flushing', () => {
  it('200 concurrent loads, flushed by concurrent flushes while loading, are exactly 200 views', async () => {
    const { tenant, modelId, userId } = await setup();
    const loads = Array.from({ length: 200 }, (_, i) =>
      recordView(deps, tenant, {
        viewer: randomUUID(),
        modelId,
        viewerKey: `u:${userId}`,
        source: i % 2 ? 'portal' : 'embed',
      }),
    );
    const flushes = Array.from({ length: 5 }, () => flushViews(deps));
    await Promise.all([...loads, ...flushes]);
    await flushViews(deps);
    expect(await stored(modelId)).toBe(200);
    expect(await redis.exists(viewKeys(prefix).pending)).toBe(0);
    expect(await redis.scard(viewKeys(prefix).batches)).toBe(0);
  });

  it('a crash after the commit and before the Redis delete does not count twice', async () => {
    const { tenant, modelId, userId } = await setup();
    for (let i = 0; i < 7; i += 1)
      await recordView(deps, tenant, {
        viewer: randomUUID(),
        modelId,
        viewerKey: `u:${userId}`,
        source: 'portal',
      });
    const id = await claimPending(deps);
    expect(id).not.toBeNull();
    // The "crashed" flush: committed, but the batch is still in Redis.
    await applyBatch(deps, id!, { deleteAfterCommit: false });
    expect(await redis.exists(viewKeys(prefix).flushing(id!))).toBe(1);
    expect(await stored(modelId)).toBe(7);
    // The next run (a restarted worker) finds it, sees it applied, and only deletes it.
    const result = await flushViews(deps, { recover: true });
    expect(result.skipped).toBe(1);
    expect(await stored(modelId)).toBe(7);
    expect(await redis.exists(viewKeys(prefix).flushing(id!))).toBe(0);
  });

  it('a crash between RENAME and the commit applies the batch once on the next run', async () => {
    const { tenant, modelId, userId } = await setup();
    for (let i = 0; i < 4; i += 1)
      await recordView(deps, tenant, {
        viewer: randomUUID(),
        modelId,
        viewerKey: `u:${userId}`,
        source: 'portal',
      });
    const id = await claimPending(deps);
    // Also lost from the batches set (as if written by an older worker): SCAN finds it.
    await redis.srem(viewKeys(prefix).batches, id!);
    await recordView(deps, tenant, {
      viewer: randomUUID(),
      modelId,
      viewerKey: `u:${userId}`,
      source: 'portal',
    });
    expect(await stored(modelId)).toBe(0);
    await flushViews(deps, { recover: true });
    expect(await stored(modelId)).toBe(5);
    await flushViews(deps, { recover: true });
    expect(await stored(modelId)).toBe(5);
  });

  it('the period count stays exact when the pending hash is claimed and applied between its reads', async () => {
    const { tenant, modelId, userId } = await setup();
    for (let i = 0; i < 5; i += 1)
      await recordView(deps, tenant, {
        viewer: randomUUID(),
        modelId,
        viewerKey: `u:${userId}`,
        source: 'portal',
      });
    const period = billingPeriod(null);
    let calls = 0;
    const count = await periodViewCount(deps, tenant.id, period, {
      // The whole flush (RENAME of the pending hash, commit, delete) between the Redis and the DB read.
      afterSnapshot: async () => {
        calls += 1;
        if (calls === 1) expect((await flushViews(deps)).views).toBeGreaterThanOrEqual(5);
      },
    });
    expect(await stored(modelId)).toBe(5);
    expect(count).toBe(5);
    expect(calls).toBe(2); // the claim was seen, and the count read again
  });

  it('the period count stays exact when a batch seen in Redis is applied between its reads', async () => {
    const { tenant, modelId, userId } = await setup();
    const view = () =>
      recordView(deps, tenant, { viewer: randomUUID(), modelId, viewerKey: `u:${userId}`, source: 'portal' });
    for (let i = 0; i < 3; i += 1) await view();
    const crashed = await claimPending(deps); // applied, but left in Redis (a crash before the delete)
    await applyBatch(deps, crashed!, { deleteAfterCommit: false });
    for (let i = 0; i < 4; i += 1) await view();
    const batch = await claimPending(deps);
    for (let i = 0; i < 2; i += 1) await view(); // still pending
    const period = billingPeriod(null);
    expect(await periodViewCount(deps, tenant.id, period)).toBe(9);
    let calls = 0;
    const count = await periodViewCount(deps, tenant.id, period, {
      afterSnapshot: async () => {
        calls += 1;
        await applyBatch(deps, batch!);
      },
    });
    expect(count).toBe(9);
    expect(calls).toBe(1);
    await flushViews(deps);
    expect(await stored(modelId)).toBe(9);
    expect(await periodViewCount(deps, tenant.id, period)).toBe(9);
  });

  it('two flushes of the same batch at once apply it once', async () => {
    const { tenant, modelId, userId } = await setup();
    for (let i = 0; i < 3; i += 1)
      await recordView(deps, tenant, {
        viewer: randomUUID(),
        modelId,
        viewerKey: `u:${userId}`,
        source: 'portal',
      });
    const id = await claimPending(deps);
    const results = await Promise.all([applyBatch(deps, id!), applyBatch(deps, id!), applyBatch(deps, id!)]);
    expect(results.filter((r) => !r.skipped)).toHaveLength(1);
    expect(await stored(modelId)).toBe(3);
  });

  it('drops the counts of a model removed meanwhile instead of failing the batch', async () => {
    const a = await setup();
    const b = await setup();
    await recordView(deps, a.tenant, {
      viewer: randomUUID(),
      modelId: a.modelId,
      viewerKey: `u:${a.userId}`,
      source: 'portal',
    });
    await recordView(deps, b.tenant, {
      viewer: randomUUID(),
      modelId: b.modelId,
      viewerKey: `u:${b.userId}`,
      source: 'portal',
    });
    await recordView(deps, b.tenant, {
      viewer: randomUUID(),
      modelId: b.modelId,
      viewerKey: 'e:987654',
      source: 'embed',
    });
    await db.model.delete({ where: { id: a.modelId } });
    await redis.hincrby(viewKeys(prefix).pending, 'garbage|field', 3);
    await flushViews(deps);
    expect(await stored(b.modelId)).toBe(2);
    expect(await redis.exists(viewKeys(prefix).pending)).toBe(0);
  });
});

describe('once per viewer per model within the view window', () => {
  it('counts a viewer once per model in the window, each other viewer and model once more', async () => {
    const { tenant, modelId, userId } = await setup();
    const other = await setup();
    const load = (viewer: string, model = modelId) =>
      recordView(deps, tenant, { viewer, modelId: model, viewerKey: `e:${userId}`, source: 'embed' });
    expect((await load('e:1:v:alice')).counted).toBe(true);
    const again = await load('e:1:v:alice');
    expect(again).toMatchObject({ counted: false, count: 1 });
    expect((await load('e:1:v:bob')).counted).toBe(true);
    expect((await load('e:1:v:alice', other.modelId)).counted).toBe(true);
    await flushViews(deps);
    expect(await stored(modelId)).toBe(2);
    expect(await stored(other.modelId)).toBe(1);
  });

  it('counts the same viewer again once the window has passed', async () => {
    const { tenant, modelId, userId } = await setup();
    const short = { ...deps, viewWindowSeconds: 1 };
    const load = () =>
      recordView(short, tenant, { viewer: 'u:me', modelId, viewerKey: `u:${userId}`, source: 'portal' });
    expect((await load()).counted).toBe(true);
    expect((await load()).counted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await load()).counted).toBe(true);
    await flushViews(deps);
    expect(await stored(modelId)).toBe(2);
  });

  it('a load refused over the limit does not mark the viewer as counted', async () => {
    const { modelId, userId } = await setup();
    const limited: TenantPlanContext = {
      id: (await setup()).tenant.id,
      isPlatform: false,
      subscription: {
        status: 'active',
        activePayment: true,
        trialEnd: null,
        cancelAt: null,
        currentPeriodStart: null,
        currentPeriodEnd: null,
        additionalViews: 0,
        plan: { viewLimit: 1, unlimitedViews: false, additionalViewsPrice: 0 },
      },
      branding: { additionalViewsValidation: true },
    };
    const load = (viewer: string) =>
      // No grace band here: the limit itself is what this test refuses at.
      recordView({ ...deps, viewGracePercent: 0 }, limited, {
        viewer,
        modelId,
        viewerKey: `u:${userId}`,
        source: 'portal',
      });
    expect((await load('first')).counted).toBe(true);
    await expect(load('second')).rejects.toMatchObject({ status: 429 });
    // Still refused (not "already counted"): the refusal left no seen flag behind.
    await expect(load('second')).rejects.toMatchObject({ status: 429 });
    expect((await load('first')).counted).toBe(false);
  });
});
