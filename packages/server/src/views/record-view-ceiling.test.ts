import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db.ts';
import { createViewBed, type ViewBed } from '../testing/view-bed.ts';
import { COMMAND_CLIENT_OPTIONS, createRedis, type Redis } from '../redis.ts';
import { flushViews } from './flush-views.ts';
import { recordView, type ViewDeps, type ViewLoad } from './record-view.ts';

/**
 * The ceilings per address and link, and per address and school (ViewLoad.ceilings), in the counting script and in the path that
 * counts in PostgreSQL while Redis is down: past the ceiling loads are served and not counted, and the
 * views recorded equal the loads counted, exactly.
 */
let bed: ViewBed;
let db: Db;
let redis: Redis;
let prefix: string;

beforeAll(async () => {
  bed = await createViewBed('helix_views_ceiling');
  ({ db, redis, prefix } = bed);
});
afterAll(() => bed?.close());

const setup = () => bed.setup();
const stored = (modelId: number) => bed.stored(modelId);

const loadOf = (modelId: number, userId: number, scope: string, max: number) => (): ViewLoad => ({
  modelId,
  viewerKey: `u:${userId}`,
  source: 'embed',
  viewer: randomBytes(16).toString('base64url'),
  ceilings: [{ scope, max, seconds: 3600 }],
});

/** A load under a link's ceiling and the school's ceiling shared by all its links (one address). */
const twoCeilings = (modelId: number, userId: number, link: string, school: string) => (): ViewLoad => ({
  modelId,
  viewerKey: `u:${userId}`,
  source: 'embed',
  viewer: randomBytes(16).toString('base64url'),
  ceilings: [
    { scope: link, max: 25, seconds: 3600 },
    { scope: school, max: 40, seconds: 3600 },
  ],
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

describe('the ceiling per address and school, across its links', () => {
  const hex = () => randomBytes(4).toString('hex');
  it('in Redis: four links of 25 from one address count the school ceiling of 40, not 100', async () => {
    const { tenant, modelId, userId } = await setup();
    const deps: ViewDeps = { db, redis, prefix };
    const school = `t${hex()}`;
    const loads = [1, 2, 3, 4].flatMap((n) =>
      Array.from({ length: 30 }, twoCeilings(modelId, userId, `l${n}${hex()}`, school)),
    );
    const answers = await Promise.all(loads.map((load) => recordView(deps, tenant, load)));
    expect(answers.filter((a) => a.counted)).toHaveLength(40);
    await flushViews(deps, { recover: true });
    expect(await stored(modelId)).toBe(40);
  });

  it('while Redis is down: the same, exactly', async () => {
    const { tenant, modelId, userId } = await setup();
    const down = createRedis('redis://127.0.0.1:1', { ...COMMAND_CLIENT_OPTIONS, lazyConnect: true });
    down.on('error', () => {}); // refused connections, expected
    try {
      const deps: ViewDeps = { db, redis: down, prefix };
      const school = `t${hex()}`;
      const loads = [1, 2, 3, 4].flatMap((n) =>
        Array.from({ length: 30 }, twoCeilings(modelId, userId, `l${n}${hex()}`, school)),
      );
      const answers = await Promise.all(loads.map((load) => recordView(deps, tenant, load)));
      expect(answers.filter((a) => a.counted)).toHaveLength(40);
      expect(await stored(modelId)).toBe(40);
    } finally {
      down.disconnect();
    }
  });
});
