import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db.ts';
import { createViewBed, type ViewBed } from '../testing/view-bed.ts';
import { createRedis, type Redis } from '../redis.ts';
import { flushViews } from './flush-views.ts';
import { recordView, type ViewDeps } from './record-view.ts';
import { viewCommands } from './view-store.ts';

/**
 * The counting script sent, then the connection lost before its answer: Redis may or may not have
 * counted the load. Either way the load is served and ends counted exactly once (settle-later.ts).
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let bed: ViewBed;
let db: Db;
let prefix: string;

beforeAll(async () => {
  bed = await createViewBed('helix_views_lost');
  ({ db, prefix } = bed);
});
afterAll(() => bed?.close());

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

const setup = () => bed.setup();
const stored = (modelId: number) => bed.stored(modelId);

async function settled(deps: ViewDeps, modelId: number, expected: number) {
  const deadline = Date.now() + 90_000; // a liveness bound, not a speed check
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
