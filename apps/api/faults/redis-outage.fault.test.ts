/**
 * Redis stopped (its own redis-server, SIGTERM, AOF kept) for 5 s and for 20 s under paced embed page
 * loads against the real API and worker processes. What must hold: no request takes 2 s or more; every
 * answer is a 200 or a fast 503 REDIS_UNAVAILABLE with Retry-After (the embed load itself degrades: its
 * view goes straight to PostgreSQL); /api/ready says so quickly; once the worker has flushed, views
 * recorded = viewer loads answered 200, exactly; the outage is logged once when it starts and once when
 * it ends. Prints a table per case (the README's "Faults" table).
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '@helix/server/db';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { sleep } from '@helix/stack/services/net';
import { startWorkerProcess } from '../test/worker-process.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';
import { createEmbedFixture, recordedViews, type EmbedFixture } from './support/embed-fixture.ts';
import { startOwnRedis, type OwnRedis } from './support/own-redis.ts';
import { pacedEmbedLoads, since, summarise, VIEWER_ORIGIN } from './support/paced-loads.ts';
import { pollReady, waitForViews } from './support/outage-case.ts';

const LOADS_PER_SECOND = 25;
const PREFIX = 'helixfault';

let redis: OwnRedis;
let database: { name: string; url: string };
let db: Db;
let fixture: EmbedFixture;
let api: ApiProcess;
let worker: Awaited<ReturnType<typeof startWorkerProcess>>;

beforeAll(async () => {
  redis = await startOwnRedis();
  database = await createTestDatabase('helix_fault_redis');
  db = createDb(database.url);
  fixture = await createEmbedFixture(db);
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: PREFIX,
    SMTP_URL: 'smtp://127.0.0.1:9',
    PUBLIC_URL: 'http://127.0.0.1',
  };
  api = await startApiProcess({
    ...env,
    STORAGE_DIR: fixture.storageDir,
    VIEWER_URL: VIEWER_ORIGIN,
    EMBED_RATE_LIMIT_MAX: '100000000',
    EMBED_TOKEN_RATE_LIMIT_MAX: '100000000',
  });
  worker = await startWorkerProcess(env);
});

afterAll(async () => {
  await api?.kill();
  await worker?.kill('SIGTERM');
  await db?.$disconnect();
  if (database) await dropDatabase(database.name);
  await redis?.destroy();
  if (fixture) await rm(fixture.storageDir, { recursive: true, force: true });
});

const outageLines = (dependency: string) => ({
  started: api.logLines(/outage started/).filter((l) => l.dependency === dependency).length,
  ended: api.logLines(/available again/).filter((l) => l.dependency === dependency).length,
});

describe('Redis outage under paced embed loads', () => {
  it.each([
    [5, 1],
    [20, 2],
  ])('Redis down for %i s: fast answers, views exact, logged once', async (seconds, outagesSoFar) => {
    const viewsBefore = await recordedViews(db, fixture.modelId);
    const loads = pacedEmbedLoads({
      api: api.url,
      token: fixture.token,
      urlModelName: fixture.urlModelName,
      perSecond: LOADS_PER_SECOND,
    });
    const ready = pollReady(api.url, loads.t0);
    await sleep(3000);
    await redis.stop();
    const downAt = since(loads.t0);
    await sleep(seconds * 1000);
    await redis.start();
    const upAt = since(loads.t0);
    await sleep(5000);
    const samples = await loads.stop();
    const readySamples = await ready.stop();
    const loadsEnd = since(loads.t0);

    const served = samples.filter((s) => s.kind === 'viewer' && s.status === 200).length;
    const flushed = await waitForViews(
      () => recordedViews(db, fixture.modelId),
      viewsBefore + served,
      30_000,
    );
    const views = flushed.views - viewsBefore;
    const during = samples.filter((s) => s.at >= downAt && s.at < upAt);
    const recovered = readySamples.find((r) => r.at >= upAt && r.status === 200);
    const table = {
      outage: `${seconds} s`,
      loads: samples.filter((s) => s.kind === 'viewer').length,
      ...summarise(samples),
      'during outage': summarise(during).statuses,
      'ready max ms': Math.round(Math.max(...readySamples.map((r) => r.ms))),
      'ready 200 again after s': recovered ? ((recovered.at - upAt) / 1000).toFixed(1) : 'never',
      'viewer 200': served,
      'views recorded': views,
      'views exact s after last load': ((flushed.at - loads.t0 - loadsEnd) / 1000).toFixed(1),
    };
    console.log(`\nRedis outage, ${seconds} s, ${LOADS_PER_SECOND} embed loads/s`);
    console.table([table]);

    console.log(
      api
        .logLines(/outage started|available again/)
        .map((l) => `${new Date(l.time as number).toISOString()} ${l.msg} ${String(l.error ?? '')}`)
        .join('\n'),
    );
    expect(samples.filter((s) => s.ms >= 2000)).toEqual([]);
    for (const s of samples.filter((x) => x.status !== 200)) {
      expect(s).toMatchObject({ status: 503, code: 'REDIS_UNAVAILABLE', retryAfter: expect.any(String) });
    }
    // The embed load degrades rather than fails: most loads in the outage are served.
    expect(during.filter((s) => s.kind === 'viewer' && s.status === 200).length).toBeGreaterThan(
      (seconds * LOADS_PER_SECOND) / 2,
    );
    expect(views).toBe(served);
    expect(
      readySamples.filter((r) => r.at >= downAt + 1500 && r.at < upAt).every((r) => r.status === 503),
    ).toBe(true);
    expect(Math.max(...readySamples.map((r) => r.ms))).toBeLessThan(1000);
    expect(recovered).toBeDefined();
    expect(outageLines('redis')).toEqual({ started: outagesSoFar, ended: outagesSoFar });
    expect(api.logLines(/rate limiter|unhandled error|drawn home/)).toEqual([]);
  });
});
