import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db.ts';
import { createViewBed, type ViewBed } from '../testing/view-bed.ts';
import { COMMAND_CLIENT_OPTIONS, createRedis, type Redis } from '../redis.ts';
import { flushViews } from './flush-views.ts';
import { loadLimit, overLoadLimit, type LoadLimit } from './load-limit.ts';
import { recordView, type ViewDeps, type ViewLoad } from './record-view.ts';

/**
 * The public rate limit checked in the view's counting script (one Redis round trip per load): the
 * windows count every load once, over them 429 and nothing counted, the view rules (once per viewer,
 * ceilings) unchanged beside them, a load refused before its view counted with the windows alone, and
 * Redis down lets loads through, counted in PostgreSQL.
 */
let bed: ViewBed;
let db: Db;
let redis: Redis;
let prefix: string;

beforeAll(async () => {
  bed = await createViewBed('helix_views_load_limit');
  ({ db, redis, prefix } = bed);
});
afterAll(() => bed?.close());

const hex = () => randomBytes(4).toString('hex');

const limitOf = (address: number, credential: number, name = `t${hex()}`): LoadLimit =>
  loadLimit(
    {
      REDIS_PREFIX: prefix,
      EMBED_RATE_LIMIT_MAX: address,
      EMBED_TOKEN_RATE_LIMIT_MAX: credential,
      EMBED_RATE_LIMIT_WINDOW_SECONDS: 60,
    },
    name,
    '203.0.113.9',
    'the-link-token',
  );

const loadOf = (modelId: number, userId: number, limit: LoadLimit, viewer = hex()): ViewLoad => ({
  modelId,
  viewerKey: `u:${userId}`,
  source: 'embed',
  viewer,
  limit,
});

/** The commands sent on `client` while `run` runs (each one a round trip to Redis), and its answer. */
async function commandsDuring(client: Redis, run: () => Promise<unknown>) {
  const spy = vi.spyOn(client, 'sendCommand');
  try {
    const status = await run().then(
      () => 200,
      (e: { status?: number }) => e.status,
    );
    return { status, commands: spy.mock.calls.map(([command]) => (command as { name: string }).name) };
  } finally {
    spy.mockRestore();
  }
}

describe('the public rate limit in the counting script', () => {
  it('a load is ONE Redis command: counted, a reload, over the limit alike', async () => {
    const { tenant, modelId, userId } = await setup();
    const deps: ViewDeps = { db, redis, prefix };
    const limit = limitOf(3, 100);
    await recordView(deps, tenant, loadOf(modelId, userId, limitOf(100, 100))); // initialises the period
    const load = (viewer?: string) => () => recordView(deps, tenant, loadOf(modelId, userId, limit, viewer));
    const one = { status: 200, commands: ['evalsha'] };
    expect(await commandsDuring(redis, load('a'))).toEqual(one); // counted
    expect(await commandsDuring(redis, load('a'))).toEqual(one); // a reload in the window
    expect(await commandsDuring(redis, load())).toEqual(one);
    expect(await commandsDuring(redis, load())).toEqual({ status: 429, commands: ['evalsha'] });
  });

  it('over either window: 429 and nothing counted; each window counts every load once', async () => {
    const { tenant, modelId, userId } = await setup();
    const deps: ViewDeps = { db, redis, prefix };
    const address = limitOf(2, 100);
    const outcome = async (limit: LoadLimit) =>
      recordView(deps, tenant, loadOf(modelId, userId, limit)).then(
        (a) => (a.counted ? 'counted' : 'served'),
        (e: { status?: number }) => e.status,
      );
    // The first load of the period initialises the counter and runs the script again: its windows
    // still count once (else the second load here would be refused).
    expect([await outcome(address), await outcome(address), await outcome(address)]).toEqual([
      'counted',
      'counted',
      429,
    ]);
    const link = limitOf(100, 1);
    expect([await outcome(link), await outcome(link)]).toEqual(['counted', 429]);
    await flushViews(deps, { recover: true });
    expect(await bed.stored(modelId)).toBe(3);
  });

  it('a reload in the view window is not counted again and still counts against the limit', async () => {
    const { tenant, modelId, userId } = await setup();
    const deps: ViewDeps = { db, redis, prefix };
    const limit = limitOf(2, 100);
    expect((await recordView(deps, tenant, loadOf(modelId, userId, limit, 'same'))).counted).toBe(true);
    expect((await recordView(deps, tenant, loadOf(modelId, userId, limit, 'same'))).counted).toBe(false);
    await expect(recordView(deps, tenant, loadOf(modelId, userId, limit, 'same'))).rejects.toMatchObject({
      status: 429,
    });
  });

  it('the ceilings hold beside it: past the ceiling served, not counted', async () => {
    const { tenant, modelId, userId } = await setup();
    const deps: ViewDeps = { db, redis, prefix };
    const limit = limitOf(100, 100);
    const scope = `s${hex()}`;
    const answers = [];
    for (let i = 0; i < 5; i += 1) {
      answers.push(
        await recordView(deps, tenant, {
          ...loadOf(modelId, userId, limit),
          ceilings: [{ scope, max: 3, seconds: 3600 }],
        }),
      );
    }
    expect(answers.map((a) => a.counted)).toEqual([true, true, true, false, false]);
  });

  it('a load refused before its view counts against the same windows (overLoadLimit)', async () => {
    const { tenant, modelId, userId } = await setup();
    const deps: ViewDeps = { db, redis, prefix };
    const limit = limitOf(2, 100);
    expect(await overLoadLimit({ redis }, limit)).toBe(false);
    expect((await recordView(deps, tenant, loadOf(modelId, userId, limit))).counted).toBe(true);
    expect(await overLoadLimit({ redis }, limit)).toBe(true);
    await expect(recordView(deps, tenant, loadOf(modelId, userId, limit))).rejects.toMatchObject({
      status: 429,
    });
  });

  it('Redis down: the limit lets loads through and every view is counted in PostgreSQL', async () => {
    const { tenant, modelId, userId } = await setup();
    const down = createRedis('redis://127.0.0.1:1', { ...COMMAND_CLIENT_OPTIONS, lazyConnect: true });
    down.on('error', () => {}); // refused connections, expected
    try {
      const deps: ViewDeps = { db, redis: down, prefix };
      const limit = limitOf(1, 1);
      expect(await overLoadLimit({ redis: down }, limit)).toBe(false);
      const answers = [];
      for (let i = 0; i < 3; i += 1)
        answers.push(await recordView(deps, tenant, loadOf(modelId, userId, limit)));
      expect(answers.every((a) => a.counted)).toBe(true);
      expect(await bed.stored(modelId)).toBe(3);
    } finally {
      down.disconnect();
    }
  });
});

const setup = () => bed.setup();
