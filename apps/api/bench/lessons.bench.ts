/**
 * `npm run bench:lessons`: live lessons' fan-out (issue 32, docs/live-lessons.md) on the real API
 * process (apps/api/src/main.ts, a child), its own PostgreSQL database and the machine's Redis under a
 * prefix of its own.
 *
 *  A. one teacher and BENCH_PUPILS (300) pupils in one lesson;
 *  B. BENCH_LESSONS (20) lessons of BENCH_CLASS (30) pupils at once.
 *
 * Every client is a socket.io client (websocket transport), as the portal's pages connect: the
 * teachers in this process, the pupils (joined by code over REST first, as guests) in
 * BENCH_PUPIL_PROCESSES (2) child processes, so neither the API nor the teachers' clock share an event
 * loop with 300 receiving sockets. Each teacher sends its camera view 30 times a second for
 * BENCH_SECONDS (10), each view carrying `sentAt`; every pupil records the fan-out latency of each view
 * it receives first (receipt - sentAt, the machine's one clock). Printed per scenario: p50/p95/p99
 * fan-out latency against the target p95 <= BENCH_MAX_P95_MS (150) (PASS/FAIL, printed only: the
 * machine is shared), views sent and accepted, views delivered (distinct per pupil, and every receipt
 * with the trailing resend) and the volatile drops, the API's CPU per delivered update (its user +
 * system time from /proc over the sending and the settling, over the receipts), the load generator's
 * CPU and event-loop delay (its share of the latency), and the machine's load beside them.
 *
 * The FINAL state is checked: after each teacher's last view, every pupil's latest view (by seq) must
 * equal that last view (the server's trailing reliable send), within BENCH_SETTLE_MS (30 s, a hang
 * detector). FAIL (exit code 1) otherwise.
 *
 * BENCH_PROCESSES=2 runs two API processes on the same Redis (socket.io's Redis adapter): the teachers
 * on the first, the pupils spread over both (joining and connecting to the one they are given).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createDb, type Db } from '@helix/server/db';
import { createRedis } from '@helix/server/redis';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { LESSON_LIMITS, type LessonForTeacher, type LessonView } from '@helix/shared/lessons';
import { startApiProcess, type ApiProcess } from '../faults/support/api-process.ts';
import {
  LessonClient,
  createLessonSchool,
  inBatches,
  joinLessonAt,
  numberedView,
  preciseNow,
  startLessonAt,
  type LessonSchool,
} from '../test/lesson-class.ts';
import { cpuSecondsOf } from './support/cpu-shares.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SECONDS = env('BENCH_SECONDS', 10);
const PROCESSES = Math.max(1, Math.min(4, env('BENCH_PROCESSES', 1)));
const MAX_P95_MS = env('BENCH_MAX_P95_MS', 150);
const SETTLE_MS = env('BENCH_SETTLE_MS', 30_000);
const PUPILS = env('BENCH_PUPILS', 300);
const LESSONS = env('BENCH_LESSONS', 20);
const CLASS = env('BENCH_CLASS', 30);
const PUPIL_PROCESSES = Math.max(1, env('BENCH_PUPIL_PROCESSES', 2));
const VIEWS_PER_SECOND = 30;
/** The event-loop delay's sampling (its histogram counts it in: subtracted when printed). */
const DELAY_RESOLUTION_MS = 5;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const machineLoad = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')} on ${os.cpus().length} cores`;
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;

interface Lesson {
  started: LessonForTeacher;
  teacher: LessonClient;
  /** The teacher's last view and its sentAt. */
  last: { view: LessonView; sentAt: number } | null;
  sent: number;
}

/**
 * The lessons' teachers send views for `seconds`, 30 a second each (random phases), on a schedule of
 * absolute times (a view whose time a busy event loop let pass is sent as soon as it can be). The last
 * of each lesson is kept.
 */
async function lead(lessons: Lesson[], seconds: number, label: number): Promise<void> {
  const interval = 1000 / VIEWS_PER_SECOND;
  const count = Math.round(seconds * VIEWS_PER_SECOND);
  await Promise.all(
    lessons.map(async (lesson, i) => {
      const start = performance.now() + Math.random() * interval;
      for (let n = 0; n < count; n += 1) {
        const wait = start + n * interval - performance.now();
        if (wait > 0) await sleep(wait);
        lesson.sent += 1;
        const view = numberedView(label * 100_000 + lesson.sent, `part-${i}`);
        const sentAt = preciseNow();
        lesson.last = { view, sentAt };
        lesson.teacher.socket.emit('view', { view, sentAt });
      }
    }),
  );
}

// ---- the pupils' processes ---------------------------------------------------------------------------

interface Seat {
  api: string;
  token: string;
  lesson: number;
}
type LastViews = Array<{ view: LessonView; sentAt: number } | null>;
type ToPupils =
  | { type: 'connect'; seats: Seat[] }
  | { type: 'mark' }
  | { type: 'behind'; last: LastViews }
  | { type: 'report' }
  | { type: 'close' };
interface PupilReport {
  type: 'report';
  latencies: number[];
  received: number;
  firsts: number;
  /** The highest seq any pupil holds, per lesson. */
  seqs: number[];
  cpuMs: number;
  delay: { p50: number; p99: number; max: number };
}
type FromPupils =
  { type: 'connected' } | { type: 'marked'; seqs: number[] } | { type: 'behind'; n: number } | PupilReport;

/** A pupils' process: its share of the seats as socket.io clients, answering the parent's questions. */
function pupilProcess() {
  let pupils: Array<{ client: LessonClient; lesson: number }> = [];
  let latencies: number[] = [];
  let base = { received: 0, firsts: 0, cpu: process.cpuUsage() };
  const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  const send = (m: FromPupils) => process.send?.(m);
  const seqs = () => {
    const out: number[] = [];
    for (const p of pupils) out[p.lesson] = Math.max(out[p.lesson] ?? 0, p.client.latest?.seq ?? 0);
    return out;
  };
  const lag = (p: number) => Math.max(0, delay.percentile(p) / 1e6 - DELAY_RESOLUTION_MS);
  process.on('message', (m: ToPupils) => {
    if (m.type === 'connect') {
      void inBatches(m.seats, 50, async (seat) => {
        const client = new LessonClient(seat.api, seat.token);
        pupils.push({ client, lesson: seat.lesson });
        await client.welcomed(60_000);
      }).then(() => send({ type: 'connected' }));
    } else if (m.type === 'mark') {
      latencies = [];
      base = {
        received: pupils.reduce((n, p) => n + p.client.received, 0),
        firsts: pupils.reduce((n, p) => n + p.client.firsts, 0),
        cpu: process.cpuUsage(),
      };
      for (const { client } of pupils) client.onFirst = (message, at) => latencies.push(at - message.sentAt);
      delay.reset();
      delay.enable();
      send({ type: 'marked', seqs: seqs() });
    } else if (m.type === 'behind') {
      const n = pupils.filter(({ client, lesson }) => {
        const last = m.last[lesson];
        return !last || !client.showsView(last.view, last.sentAt);
      }).length;
      send({ type: 'behind', n });
    } else if (m.type === 'report') {
      delay.disable();
      for (const { client } of pupils) client.onFirst = null;
      const cpu = process.cpuUsage(base.cpu);
      send({
        type: 'report',
        latencies,
        received: pupils.reduce((n, p) => n + p.client.received, 0) - base.received,
        firsts: pupils.reduce((n, p) => n + p.client.firsts, 0) - base.firsts,
        seqs: seqs(),
        cpuMs: (cpu.user + cpu.system) / 1000,
        delay: { p50: lag(50), p99: lag(99), max: lag(100) },
      });
    } else if (m.type === 'close') {
      for (const { client } of pupils) client.close();
      pupils = [];
      setTimeout(() => process.exit(0), 200);
    }
  });
}

/** The pupils' processes, asked in turn (each answers with the message type it was asked). */
class PupilProcesses {
  readonly children: ChildProcess[];

  constructor(count: number) {
    this.children = Array.from({ length: count }, () =>
      fork(fileURLToPath(import.meta.url), ['--pupils'], { stdio: 'inherit', execArgv: process.execArgv }),
    );
  }

  ask<T extends FromPupils['type']>(
    message: ToPupils | ((i: number) => ToPupils),
    type: T,
  ): Promise<Array<Extract<FromPupils, { type: T }>>> {
    return Promise.all(
      this.children.map(
        (child, i) =>
          new Promise<Extract<FromPupils, { type: T }>>((resolve, reject) => {
            const on = (m: FromPupils) => {
              if (m.type !== type) return;
              child.off('message', on);
              child.off('exit', exited);
              resolve(m as Extract<FromPupils, { type: T }>);
            };
            const exited = (code: number | null) => reject(new Error(`a pupils' process exited (${code})`));
            child.on('message', on);
            child.once('exit', exited);
            child.send(typeof message === 'function' ? message(i) : message);
          }),
      ),
    );
  }

  /** Waits until every pupil shows its teacher's last view; the pupils that do not by `timeoutMs`. */
  async settle(lessons: Lesson[], timeoutMs: number): Promise<{ ms: number; behind: number }> {
    const start = performance.now();
    const last: LastViews = lessons.map((l) => l.last);
    const behind = async () =>
      (await this.ask({ type: 'behind', last }, 'behind')).reduce((n, r) => n + r.n, 0);
    let n = await behind();
    while (n > 0 && performance.now() - start < timeoutMs) {
      await sleep(20);
      n = await behind();
    }
    return { ms: performance.now() - start, behind: n };
  }

  async close(): Promise<void> {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.send({ type: 'close' } satisfies ToPupils);
          }),
      ),
    );
  }
}

// ---- a scenario --------------------------------------------------------------------------------------

interface Outcome {
  label: string;
  p95: number;
  finalOk: boolean;
}

async function scenario(
  label: string,
  apis: ApiProcess[],
  school: LessonSchool,
  shape: { lessons: number; pupils: number },
): Promise<Outcome> {
  console.log(`\n${label}: ${shape.lessons} lesson(s) x ${shape.pupils} pupils (${machineLoad()})`);
  const lead0 = apis[0]!.url;
  const lessons: Lesson[] = await inBatches(
    Array.from({ length: shape.lessons }, (_, i) => i),
    4,
    async (i) => {
      const started = await startLessonAt(lead0, school, i);
      const teacher = new LessonClient(lead0, started.socketToken);
      await teacher.welcomed();
      return { started, teacher, last: null, sent: 0 };
    },
  );
  const joinedAt = performance.now();
  const seats: Seat[] = await inBatches(
    lessons.flatMap((_, lesson) => Array.from({ length: shape.pupils }, () => lesson)),
    16,
    async (lesson, k) => {
      const api = apis[k % apis.length]!.url;
      const joined = await joinLessonAt(api, lessons[lesson]!.started.lesson.code, `Pupil ${k + 1}`);
      return { api, token: joined.socketToken, lesson };
    },
  );
  const pupils = new PupilProcesses(PUPIL_PROCESSES);
  try {
    await pupils.ask(
      (i) => ({ type: 'connect', seats: seats.filter((_, k) => k % PUPIL_PROCESSES === i) }),
      'connected',
    );
    console.log(
      `  ${seats.length} pupils joined (REST) and connected (socket.io, websocket) in ` +
        `${((performance.now() - joinedAt) / 1000).toFixed(1)} s: ${apis.length} API process(es), ` +
        `${PUPIL_PROCESSES} pupils' processes`,
    );

    // Warm-up (code compiled, connections and buffers made): half a second of views, then settled.
    await lead(lessons, 0.5, 1);
    await pupils.settle(lessons, SETTLE_MS);
    const marked = await pupils.ask({ type: 'mark' }, 'marked');
    const baseSeq = lessons.map((_, i) => Math.max(0, ...marked.map((m) => m.seqs[i] ?? 0)));
    const sentBefore = lessons.map((l) => l.sent);

    const apiCpu = () => apis.reduce((sum, a) => sum + cpuSecondsOf(a.child.pid!), 0);
    const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
    delay.enable();
    const cpu0 = apiCpu();
    const self0 = process.cpuUsage();
    const t0 = performance.now();
    await lead(lessons, SECONDS, 2);
    const sendSeconds = (performance.now() - t0) / 1000;
    const settled = await pupils.settle(lessons, SETTLE_MS);
    const apiSeconds = apiCpu() - cpu0;
    const self = process.cpuUsage(self0);
    delay.disable();
    const reports = await pupils.ask({ type: 'report' }, 'report');

    const sent = lessons.reduce((n, l, i) => n + l.sent - sentBefore[i]!, 0);
    const accepted = lessons.reduce(
      (n, _, i) => n + Math.max(0, ...reports.map((r) => r.seqs[i] ?? 0)) - baseSeq[i]!,
      0,
    );
    const receipts = reports.reduce((n, r) => n + r.received, 0);
    const distinct = reports.reduce((n, r) => n + r.firsts, 0);
    const expected = (seats.length / lessons.length) * accepted;
    const sorted = reports.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const p95 = percentile(sorted, 95);
    const finalOk = settled.behind === 0;
    const lag = (p: number) => Math.max(0, delay.percentile(p) / 1e6 - DELAY_RESOLUTION_MS).toFixed(1);

    console.log(
      `  fan-out latency (receipt - sentAt, first receipt of each view): p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
        `p95 ${p95.toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms ` +
        `over ${sorted.length} receipts; target p95 <= ${MAX_P95_MS} ms: ${p95 <= MAX_P95_MS ? 'PASS' : 'FAIL'} (${machineLoad()})`,
    );
    console.log(
      `  views sent ${sent} in ${sendSeconds.toFixed(1)} s (${(sent / sendSeconds / lessons.length).toFixed(1)}/s per teacher), ` +
        `accepted ${accepted} (${sent - accepted} over the server's ${LESSON_LIMITS.viewsPerSecond}/s limit); ` +
        `delivered ${distinct} of ${Math.round(expected)} (${((distinct / expected) * 100).toFixed(1)}%: ` +
        `${Math.round(expected) - distinct} volatile drops), ${receipts} receipts with the trailing resends`,
    );
    console.log(
      `  API CPU ${apiSeconds.toFixed(2)} s over ${sendSeconds.toFixed(1)} s of sending and ${(settled.ms / 1000).toFixed(1)} s settling ` +
        `(${(apiSeconds / (sendSeconds + settled.ms / 1000)).toFixed(2)} cores): ` +
        `${((apiSeconds * 1e6) / Math.max(1, receipts)).toFixed(1)} µs per delivered update, ` +
        `${((apiSeconds * 1000) / Math.max(1, accepted)).toFixed(2)} ms per accepted view`,
    );
    console.log(
      `  load generator: teachers' process CPU ${((self.user + self.system) / 1e6).toFixed(1)} s, event-loop delay ` +
        `p99 ${lag(99)} ms; pupils' processes CPU ${reports.map((r) => (r.cpuMs / 1000).toFixed(1)).join(' + ')} s, ` +
        `event-loop delay p50 ${reports.map((r) => r.delay.p50.toFixed(1)).join(' / ')} ms, ` +
        `p99 ${reports.map((r) => r.delay.p99.toFixed(1)).join(' / ')} ms, max ${reports.map((r) => r.delay.max.toFixed(0)).join(' / ')} ms`,
    );
    console.log(
      `  final state: ${seats.length - settled.behind} of ${seats.length} pupils show their teacher's last view ` +
        `${(settled.ms / 1000).toFixed(2)} s after it: ${finalOk ? 'PASS' : 'FAIL'}`,
    );
    return { label, p95, finalOk };
  } finally {
    await inBatches(lessons, 4, async (l, i) => {
      const res = await fetch(`${lead0}${school.base}/lessons/${l.started.lesson.id}/end`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${school.teachers[i]}` },
      });
      await res.arrayBuffer();
    });
    for (const l of lessons) l.teacher.close();
    await pupils.close();
  }
}

async function cleanRedis(prefix: string) {
  const redis = createRedis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

async function main() {
  console.log(
    `Helix live lessons benchmark, ${new Date().toISOString()}, Node ${process.version}, ` +
      `${VIEWS_PER_SECOND} views/s per teacher for ${SECONDS} s, ${PROCESSES} API process(es), ${machineLoad()}`,
  );
  const database = await createTestDatabase('helix_bench_lessons');
  const prefix = `helixbench-${randomBytes(4).toString('hex')}`;
  let db: Db | undefined;
  const apis: ApiProcess[] = [];
  const outcomes: Outcome[] = [];
  try {
    db = createDb(database.url);
    const school = await createLessonSchool(db, Math.max(1, LESSONS));
    // Every process signs and checks seat tokens with the one secret.
    const secret = randomBytes(32).toString('hex');
    for (let i = 0; i < PROCESSES; i += 1) {
      apis.push(
        await startApiProcess({
          NODE_ENV: 'production',
          DATABASE_URL: database.url,
          REDIS_URL,
          REDIS_PREFIX: prefix,
          SIGNING_SECRET: secret,
          SMTP_URL: 'smtp://127.0.0.1:9',
          PUBLIC_URL: 'http://127.0.0.1',
          VIEWER_URL: 'http://127.0.0.1:9',
        }),
      );
    }
    if (PUPILS > 0)
      outcomes.push(await scenario('A. one lesson', apis, school, { lessons: 1, pupils: PUPILS }));
    if (LESSONS > 0 && CLASS > 0)
      outcomes.push(await scenario('B. lessons at once', apis, school, { lessons: LESSONS, pupils: CLASS }));
  } finally {
    await Promise.all(apis.map((api) => api.kill()));
    await db?.$disconnect();
    await dropDatabase(database.name);
    await cleanRedis(prefix);
  }
  const failed = outcomes.filter((o) => !o.finalOk);
  console.log(
    `\n${outcomes.map((o) => `${o.label}: p95 ${o.p95.toFixed(1)} ms ${o.p95 <= MAX_P95_MS ? 'PASS' : 'FAIL'}, final state ${o.finalOk ? 'PASS' : 'FAIL'}`).join('\n')}` +
      `\n(${machineLoad()} at the end)`,
  );
  process.exit(failed.length ? 1 : 0);
}

if (process.argv[2] === '--pupils') pupilProcess();
else
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
