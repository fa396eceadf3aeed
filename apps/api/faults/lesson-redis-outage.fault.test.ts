/**
 * Redis stopped (its own redis-server, SIGTERM, AOF kept) for 5 s during a live lesson on the real API
 * process: a teacher and four pupils (socket.io clients, as the portal's pages), the teacher sending
 * its view 10 times a second before and all through the outage, its last view sent while Redis is
 * still down; one pupil's connection drops in the middle of the outage (a tablet's Wi-Fi) and keeps
 * trying. What must hold once Redis is back: every pupil is connected again and shows the teacher's
 * last view (deep-equal: the API keeps the leader's latest view that Redis could not take and stores
 * and sends it once Redis answers, docs/live-lessons.md "Redis outage"); the REST calls answer without
 * a 5xx; the API process is still up. The only bounds are liveness bounds (hang detectors); what
 * happened (disconnects, refused connects, reconnects, time to converge) is printed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '@helix/server/db';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { sleep, waitFor } from '@helix/stack/services/net';
import type { LessonView } from '@helix/shared/lessons';
import {
  LessonClient,
  createLessonSchool,
  joinLessonAt,
  numberedView,
  preciseNow,
  startLessonAt,
  type LessonSchool,
} from '../test/lesson-class.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';
import { startOwnRedis, type OwnRedis } from './support/own-redis.ts';

/** Liveness bounds: generous, for a loaded machine. */
const CONVERGE_MS = 60_000;
const OUTAGE_MS = 5000;
const VIEWS_PER_SECOND = 10;

let redis: OwnRedis;
let database: { name: string; url: string };
let db: Db;
let school: LessonSchool;
let api: ApiProcess;
let storageDir: string;
const clients: LessonClient[] = [];

beforeAll(async () => {
  redis = await startOwnRedis();
  database = await createTestDatabase('helix_fault_lesson_redis');
  db = createDb(database.url);
  school = await createLessonSchool(db, 1);
  storageDir = await mkdtemp(path.join(tmpdir(), 'helix-fault-lesson-'));
  api = await startApiProcess({
    STORAGE_DIR: storageDir,
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: 'helixfault',
    SMTP_URL: 'smtp://127.0.0.1:9',
    PUBLIC_URL: 'http://127.0.0.1',
    VIEWER_URL: 'http://127.0.0.1:9',
  });
});

afterAll(async () => {
  for (const client of clients) client.close();
  await api?.kill();
  await db?.$disconnect();
  if (database) await dropDatabase(database.name);
  await redis?.destroy();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

/** The teacher sends a view every 1/VIEWS_PER_SECOND s until stopped; the last one sent is kept. */
function sendViews(teacher: LessonClient) {
  let running = true;
  let n = 0;
  let last: { view: LessonView; sentAt: number } | null = null;
  const loop = (async () => {
    while (running) {
      n += 1;
      const view = numberedView(n, n % 2 ? 'nucleus' : 'mitochondrion');
      const sentAt = preciseNow();
      last = { view, sentAt };
      teacher.socket.emit('view', { view, sentAt });
      await sleep(1000 / VIEWS_PER_SECOND);
    }
  })();
  return {
    get sent() {
      return n;
    },
    async stop() {
      running = false;
      await loop;
      return last!;
    },
  };
}

describe('Redis outage during a live lesson', () => {
  it('Redis down 5 s while the teacher leads: pupils reconnect and converge on the teacher’s last view', async () => {
    const lesson = await startLessonAt(api.url, school, 0);
    const teacher = new LessonClient(api.url, lesson.socketToken);
    clients.push(teacher);
    await teacher.welcomed();
    const pupils: LessonClient[] = [];
    for (const name of ['Ada', 'Ben', 'Cy', 'Dee']) {
      const seat = await joinLessonAt(api.url, lesson.lesson.code, name);
      const pupil = new LessonClient(api.url, seat.socketToken);
      clients.push(pupil);
      pupils.push(pupil);
      await pupil.welcomed();
    }

    const views = sendViews(teacher);
    // Before: the class follows.
    await waitFor('every pupil to follow the teacher', async () => pupils.every((p) => p.latest !== null), {
      timeoutMs: CONVERGE_MS,
      intervalMs: 50,
    });
    const t0 = performance.now();
    const receivedBefore = pupils.map((p) => p.received);
    await redis.stop();
    const downAt = performance.now();
    // Half-way through, Dee's tablet loses its connection and reconnects (refused while Redis is down).
    await sleep(OUTAGE_MS / 2);
    const dropped = pupils[3]!;
    dropped.socket.io.engine.close();
    await sleep(OUTAGE_MS / 2);
    // The teacher's last view is sent while Redis is still down; then it stops moving.
    const last = await views.stop();
    const receivedInOutage = pupils.map((p, i) => p.received - receivedBefore[i]!);
    await redis.start();
    const upAt = performance.now();

    await waitFor(
      'every pupil connected and showing the teacher’s last view',
      async () => pupils.every((p) => p.socket.connected && p.showsView(last.view, last.sentAt)),
      { timeoutMs: CONVERGE_MS, intervalMs: 50 },
    );
    const convergedAt = performance.now();

    // The REST side once the API is ready again: no 5xx.
    await waitFor(
      'GET /api/ready to answer 200',
      async () => (await fetch(`${api.url}/api/ready`)).status === 200,
      { timeoutMs: CONVERGE_MS, intervalMs: 250 },
    );
    const statuses: Record<string, number> = {};
    const read = await fetch(`${api.url}${school.base}/lessons/${lesson.lesson.id}`, {
      headers: { Authorization: `Bearer ${school.teachers[0]}` },
    });
    statuses['GET lesson'] = read.status;
    const lateSeat = await fetch(`${api.url}/api/lessons/join`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: lesson.lesson.code, name: 'Eve' }),
    });
    statuses['POST join'] = lateSeat.status;
    const eve = new LessonClient(api.url, ((await lateSeat.json()) as { socketToken: string }).socketToken);
    clients.push(eve);
    await eve.welcomed(CONVERGE_MS);

    console.log(`\nLesson, Redis down ${OUTAGE_MS / 1000} s, teacher at ${VIEWS_PER_SECOND} views/s`);
    console.table(
      ['teacher', 'Ada', 'Ben', 'Cy', 'Dee (dropped)'].map((who, i) => {
        const c = i === 0 ? teacher : pupils[i - 1]!;
        return {
          who,
          disconnects: c.disconnects,
          'refused connects': c.refusals,
          reconnects: c.reconnects,
          'views in outage': i === 0 ? '-' : receivedInOutage[i - 1],
          'shows last view': i === 0 ? '-' : c.showsView(last.view, last.sentAt),
        };
      }),
    );
    console.table([
      {
        'views sent': views.sent,
        'Redis down at s': ((downAt - t0) / 1000).toFixed(1),
        'Redis up at s': ((upAt - t0) / 1000).toFixed(1),
        'converged s after Redis up': ((convergedAt - upAt) / 1000).toFixed(2),
        ...statuses,
        'late joiner shows last view': eve.showsView(last.view, last.sentAt),
      },
    ]);

    expect(pupils.every((p) => p.showsView(last.view, last.sentAt))).toBe(true);
    expect(dropped.disconnects).toBeGreaterThan(0);
    expect(dropped.reconnects).toBeGreaterThan(0);
    expect(Object.values(statuses).every((s) => s < 500)).toBe(true);
    expect(statuses).toEqual({ 'GET lesson': 200, 'POST join': 200 });
    expect(eve.showsView(last.view, last.sentAt)).toBe(true);
    // The process is still the one started: it did not crash.
    expect(api.child.exitCode).toBeNull();
    expect((await fetch(`${api.url}/api/health`)).status).toBe(200);
    expect(api.logLines(/unhandled|uncaught/i)).toEqual([]);
  });
});
