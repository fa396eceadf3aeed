/**
 * PostgreSQL stopped (its own server, fast shutdown) for 5 s under paced embed page loads against the
 * real API and worker processes (Redis: the machine's, under a key prefix of this case's own). What
 * must hold: no request takes 2 s or more; every answer is a 200 (a load served from the embed access
 * cache counts its view in Redis) or a fast 503 DATABASE_UNAVAILABLE with Retry-After, never a 500 or a
 * hang; loads are served again soon after PostgreSQL is back; once the worker has flushed, views
 * recorded = viewer loads answered 200, exactly; the outage is logged once when it starts and once when
 * it ends. Prints a table (the README's "Faults" table).
 */
import { rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '@helix/server/db';
import { sleep } from '@helix/stack/services/net';
import { startWorkerProcess } from '../test/worker-process.ts';
import { REDIS_URL } from '../test/harness.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';
import { createEmbedFixture, recordedViews, type EmbedFixture } from './support/embed-fixture.ts';
import { startOwnPostgres, type OwnPostgres } from './support/own-postgres.ts';
import { pacedEmbedLoads, since, summarise, VIEWER_ORIGIN } from './support/paced-loads.ts';
import { pollReady, waitForViews } from './support/outage-case.ts';
import { deleteKeys } from '../test/harness.ts';
import { createRedis } from '@helix/server/redis';

const LOADS_PER_SECOND = 25;
const OUTAGE_SECONDS = 5;
const PREFIX = `helixfault-${randomBytes(4).toString('hex')}`;

let postgres: OwnPostgres;
let db: Db;
let fixture: EmbedFixture;
let api: ApiProcess;
let worker: Awaited<ReturnType<typeof startWorkerProcess>>;

beforeAll(async () => {
  postgres = await startOwnPostgres();
  db = createDb(postgres.url);
  fixture = await createEmbedFixture(db);
  const env = {
    DATABASE_URL: postgres.url,
    REDIS_URL,
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
  await postgres?.destroy();
  if (fixture) await rm(fixture.storageDir, { recursive: true, force: true });
  const redis = createRedis(REDIS_URL);
  await deleteKeys(redis, `${PREFIX}:*`);
  redis.disconnect();
});

describe('PostgreSQL outage under paced embed loads', () => {
  it(`PostgreSQL down for ${OUTAGE_SECONDS} s: fast 503s, recovery, views exact, logged once`, async () => {
    const loads = pacedEmbedLoads({
      api: api.url,
      token: fixture.token,
      urlModelName: fixture.urlModelName,
      perSecond: LOADS_PER_SECOND,
    });
    const ready = pollReady(api.url, loads.t0);
    await sleep(3000);
    await postgres.stop();
    const downAt = since(loads.t0);
    await sleep(OUTAGE_SECONDS * 1000);
    await postgres.start();
    const upAt = since(loads.t0);
    await sleep(6000);
    const samples = await loads.stop();
    const readySamples = await ready.stop();
    const loadsEnd = since(loads.t0);

    const served = samples.filter((s) => s.kind === 'viewer' && s.status === 200).length;
    const flushed = await waitForViews(() => recordedViews(db, fixture.modelId), served, 30_000);
    const during = samples.filter((s) => s.at >= downAt && s.at < upAt);
    const firstServedAfter = samples.find((s) => s.at >= upAt && s.kind === 'detail' && s.status === 200);
    const recovered = readySamples.find((r) => r.at >= upAt && r.status === 200);
    const afterwards = samples.filter((s) => s.at >= upAt + 3000);
    console.log(`\nPostgreSQL outage, ${OUTAGE_SECONDS} s, ${LOADS_PER_SECOND} embed loads/s`);
    console.table([
      {
        outage: `${OUTAGE_SECONDS} s`,
        loads: samples.filter((s) => s.kind === 'viewer').length,
        ...summarise(samples),
        'during outage': summarise(during).statuses,
        'max ms during outage': summarise(during).max,
        'ready max ms': Math.round(Math.max(...readySamples.map((r) => r.ms))),
        'ready 200 again after s': recovered ? ((recovered.at - upAt) / 1000).toFixed(1) : 'never',
        'loads served again after s': firstServedAfter
          ? ((firstServedAfter.at - upAt) / 1000).toFixed(1)
          : 'never',
        'viewer 200': served,
        'views recorded': flushed.views,
        'views exact s after last load': ((flushed.at - loads.t0 - loadsEnd) / 1000).toFixed(1),
      },
    ]);

    console.log(
      api
        .logLines(/outage started|available again/)
        .map(
          (l) =>
            `${new Date(l.time as number).toISOString()} ${l.msg} ${l.dependency === 'postgresql' ? '' : String(l.dependency)}`,
        )
        .join('\n'),
    );
    expect(samples.filter((s) => s.ms >= 2000)).toEqual([]);
    for (const s of samples.filter((x) => x.status !== 200)) {
      expect(s).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE', retryAfter: expect.any(String) });
    }
    // The outage was seen (not all hidden by the access cache), and is over 3 s after PostgreSQL is back.
    expect(during.some((s) => s.status === 503)).toBe(true);
    expect(afterwards.every((s) => s.status === 200)).toBe(true);
    expect(flushed.views).toBe(served);
    expect(Math.max(...readySamples.map((r) => r.ms))).toBeLessThan(1000);
    // (pg_ctl returns a moment after PostgreSQL accepts connections again: the last second is left out.)
    expect(
      readySamples.filter((r) => r.at >= downAt + 1000 && r.at < upAt - 1000).every((r) => r.status === 503),
    ).toBe(true);
    expect(recovered).toBeDefined();
    const lines = (msg: RegExp) => api.logLines(msg).filter((l) => l.dependency === 'postgresql').length;
    expect({ started: lines(/outage started/), ended: lines(/available again/) }).toEqual({
      started: 1,
      ended: 1,
    });
    expect(api.logLines(/unhandled error/)).toEqual([]);
  });
});
