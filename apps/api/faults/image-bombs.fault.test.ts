import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS, QUEUE_FAMILIES } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { IMAGE_CHECK_BUDGET, IMAGE_CHECKS_PER_TENANT } from '@helix/shared/images';
import { seedRoles } from '@helix/server/testing/factories';
import { freePort, portHeldBy, waitFor } from '@helix/stack/services/net';
import { ManagedChild, tsxArgs } from '@helix/stack/services/process';
import { filterBombSvg, useBombSvg } from '@helix/worker/images/filter-bomb.fixture';
import { createHarness, REDIS_URL, type Harness } from '../test/harness.ts';
import { customer, member, png, type Caller } from '../test/models.ts';
import { startWorkerProcess } from '../test/worker-process.ts';

/**
 * Issue 16, "five SVG filter bombs uploaded at once": the real API and worker processes (as `npm
 * start` runs them) over a database and Redis prefix of their own. One tenant uploads five bombs as
 * profile pictures at once, twice: the filter bombs of the issue (refused by the filter scan), then
 * bombs the scan does not recognise (stopped by the rasteriser's time limit; the tenant's one check
 * slot makes the others wait their turn or get 429). Meanwhile another tenant's 64 x 64 PNG and a
 * views flush must never wait in their queues behind the bombs.
 */
const API_MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');
const BUDGET_MS = IMAGE_CHECK_BUDGET.seconds * 1000;
/** A bomb's answer: the budget, plus the turn it may wait for the tenant's slot, plus start-up slack. */
const BOMB_ANSWER_MS = IMAGE_CHECKS_PER_TENANT.waitMs + BUDGET_MS + 3000;
/**
 * The longest another school's picture (or a views flush) may wait in its queue, from its enqueue to
 * the worker taking it. This is not a speed check (a loaded machine makes every upload slow, and a
 * build beside this suite once made one take 17 s): the queue wait leaves out the work itself, and the
 * defect made a picture wait there for a bomb's kill at the time limit, most of BUDGET_MS. Half of it
 * is far above the worker's pick-up on a busy machine and far below that wait.
 */
const QUEUE_WAIT_MS = BUDGET_MS / 2;
/** SVG lanes of the worker at its default concurrency (apps/worker/src/images/svg-lanes.ts). */
const SVG_LANES = QUEUE_FAMILIES.images.concurrency - 1;

let h: Harness;
let storageDir: string;
let api: ManagedChild;
let worker: Awaited<ReturnType<typeof startWorkerProcess>>;
let apiUrl: string;
let attackers: Caller[];
let victim: Caller;
/** Four other schools (three free sign-ups, one on a plan), two uploaders each. */
let schools: Caller[][];
let flushes = 0;

beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'helix-bombs-'));
  h = await createHarness({ STORAGE_DIR: storageDir });
  await seedRoles(h.db);
  const attacker = await customer(h);
  // Five members of one tenant, so the per-user upload limit is not what stops them.
  attackers = [
    attacker,
    ...(await Promise.all([1, 2, 3, 4].map(() => member(h, attacker.tenant, ['User'])))),
  ];
  victim = await customer(h);
  schools = await Promise.all(
    [null, null, null, undefined].map(async (plan) => {
      const owner = await customer(h, plan === null ? { plan: null } : {});
      return [owner, await member(h, owner.tenant, ['User'])];
    }),
  );
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: h.config.DATABASE_URL,
    REDIS_URL,
    REDIS_PREFIX: h.config.REDIS_PREFIX,
    STORAGE_DIR: storageDir,
    SMTP_URL: 'smtp://127.0.0.1:9',
    PUBLIC_URL: 'http://portal.test',
  };
  const { command, args } = tsxArgs(API_MAIN);
  api = new ManagedChild({
    name: 'api',
    command,
    args,
    env: { ...process.env, ...env, LOG_LEVEL: 'warn', PORT: String(port) },
    quiet: true,
  });
  worker = await startWorkerProcess(env);
  // Our API's answer, not another server's that took the port meanwhile.
  await waitFor(
    'the API',
    async () => (await fetch(`${apiUrl}/api/health`)).ok && portHeldBy(port, api.pid),
    { timeoutMs: 60_000 },
  );
});

afterAll(async () => {
  api?.signal('SIGTERM');
  await api?.exited;
  await worker?.kill('SIGTERM');
  await h?.close();
  await rm(storageDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  code?: string;
  ms: number;
}

/** The worker's 'image checked' log line (apps/worker/src/handlers/validate-image.handler.ts). */
interface ImageChecked {
  msg: string;
  svg: boolean;
  ok: boolean;
  queuedMs: number;
  svgLanesBusy: number;
  checkMs: number;
}

/** Where the worker's output is now: `bitmapChecks(mark)` reads the checks logged after it. */
const outputMark = () => worker.output().length;

/** The bitmap checks (the other school's pictures: every bomb is an SVG) the worker logged since `mark`. */
function bitmapChecks(mark: number): ImageChecked[] {
  return worker
    .output()
    .slice(mark)
    .split('\n')
    .filter((line) => line.includes('"image checked"'))
    .map((line) => JSON.parse(line) as ImageChecked)
    .filter((check) => !check.svg);
}

async function uploadPicture(caller: Caller, bytes: Buffer, name: string, type: string): Promise<Answer> {
  const form = new FormData();
  form.set('name', 'Picture test');
  form.set('profilePicture', new Blob([new Uint8Array(bytes)], { type }), name);
  const started = performance.now();
  const res = await fetch(`${apiUrl}${caller.base}/user/edit`, {
    method: 'POST',
    // A connection of its own per upload. A burst of uploads a few seconds after the last would reuse
    // pooled connections the API closes after 5 s idle; on a loaded machine this client notices late,
    // writes to a closed one and fails the POST ("other side closed": undici does not retry a POST,
    // a browser would), and a burst of them never filled the SVG lanes (one CI run in two beside another).
    headers: { Authorization: `Bearer ${caller.token}`, Connection: 'close' },
    body: form,
  });
  const body = (await res.json()) as { code?: string };
  return { status: res.status, code: body.code, ms: Math.round(performance.now() - started) };
}

const normalUpload = async () => uploadPicture(victim, await png(64, 64), 'me.png', 'image/png');

/** A views flush through the worker's queue: from enqueue to done, and how long it waited to start. */
async function flushViews(): Promise<{ ms: number; queuedMs: number }> {
  const started = performance.now();
  const id = `fault-flush-${++flushes}`;
  await h.deps.queue.run(JOBS.flushViews, { reason: 'manual' }, id, { timeoutMs: 60_000 });
  const ms = Math.round(performance.now() - started);
  const job = await h.deps.queue.queueFor(JOBS.flushViews).getJob(id);
  return { ms, queuedMs: (job?.processedOn ?? Number.NaN) - (job?.timestamp ?? Number.NaN) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The printed figures, a row per phase. */
const rows: Record<string, string | number>[] = [];

/**
 * Five bombs from the attacking tenant at once; the victim's upload and a flush start while they run.
 * Adds the phase's row to the figures.
 */
async function attack(bomb: Buffer, phase: string) {
  const bombs = Promise.all(
    attackers.map((caller) => uploadPicture(caller, bomb, 'bomb.svg', 'image/svg+xml')),
  );
  await sleep(300);
  const mark = outputMark();
  const [upload, flush] = await Promise.all([normalUpload(), flushViews()]);
  const answers = await bombs;
  const [check] = bitmapChecks(mark);
  rows.push({
    phase,
    'bomb answers (ms)': answers.map((b) => `${b.status} ${b.ms}`).join(', '),
    'normal upload (ms)': upload.ms,
    'its queue wait (ms)': check?.queuedMs ?? '-',
    'flush (ms)': flush.ms,
    'flush queue wait (ms)': flush.queuedMs,
  });
  return { bombs: answers, upload, check, flush };
}

describe('five SVG filter bombs uploaded at once', () => {
  it('measures the usual times first', async () => {
    await normalUpload(); // warms up the API, the worker and sharp
    const mark = outputMark();
    const upload = await normalUpload();
    expect(upload.status).toBe(200);
    await flushViews();
    const flush = await flushViews();
    rows.push({
      phase: 'no bombs',
      'bomb answers (ms)': '-',
      'normal upload (ms)': upload.ms,
      'its queue wait (ms)': bitmapChecks(mark)[0]?.queuedMs ?? '-',
      'flush (ms)': flush.ms,
      'flush queue wait (ms)': flush.queuedMs,
    });
  });

  it("refuses the issue's filter bombs within the budget while the other tenant is served as usual", async () => {
    const { bombs, upload, check, flush } = await attack(filterBombSvg(), 'filter bombs (scan)');
    for (const bomb of bombs) {
      expect(bomb).toMatchObject({ status: 422, code: ERROR_CODES.imageTooComplex });
      expect(bomb.ms).toBeLessThan(BUDGET_MS);
    }
    expect(upload.status).toBe(200);
    expect(check?.queuedMs).toBeLessThan(QUEUE_WAIT_MS);
    expect(flush.queuedMs).toBeLessThan(QUEUE_WAIT_MS);
  });

  it('stops bombs the scan does not know at the time limit, one at a time, while the other tenant is served as usual', async () => {
    // 300 draws of a group blurred 6 times over: under the <use> count the scan refuses, so only the
    // time limit (one blur a draw fits the budget on an idle machine: filter-bomb.fixture.ts).
    const { bombs, upload, check, flush } = await attack(useBombSvg(300, 6), '<use> bombs (time limit)');
    console.log(
      `image bombs (budget ${IMAGE_CHECK_BUDGET.seconds} s, ${IMAGE_CHECKS_PER_TENANT.limit} check per tenant)`,
    );
    console.table(rows);
    // Each is refused: over budget (422) or, waiting behind its own tenant's bombs, busy (429); never a 5xx.
    for (const bomb of bombs) {
      expect([422, 429]).toContain(bomb.status);
      expect(bomb.code).toBe(bomb.status === 422 ? ERROR_CODES.imageTooComplex : ERROR_CODES.imageCheckBusy);
      expect(bomb.ms).toBeLessThan(BOMB_ANSWER_MS);
    }
    const first = Math.min(...bombs.map((b) => b.ms));
    expect(first).toBeLessThan(BUDGET_MS + 3000);
    expect(upload.status).toBe(200);
    // Beside the attacker's bomb (one slot per tenant: one lane of the worker), never behind it.
    expect(check?.queuedMs).toBeLessThan(QUEUE_WAIT_MS);
    expect(flush.queuedMs).toBeLessThan(QUEUE_WAIT_MS);
  });
});

describe('SVG bombs from several schools at once', () => {
  it("never slow another school's picture: it never waits for a bomb's time limit", async () => {
    await normalUpload();
    const usual = (await normalUpload()).ms;
    const images = h.deps.queue.queueOf('images');
    const figures: Record<string, string | number>[] = [];
    const results: { timeLimit: boolean; answers: Answer[]; uploads: Answer[]; checks: ImageChecked[] }[] =
      [];
    for (const [phase, bomb, timeLimit] of [
      ['<use> bombs, 1,500 draws (refused by the scan)', useBombSvg(), false],
      ['<use> bombs, 300 draws of 6 blurs (time limit)', useBombSvg(300, 6), true],
    ] as const) {
      const bombs = Promise.all(
        schools.flat().map((caller) => uploadPicture(caller, bomb, 'bomb.svg', 'image/svg+xml')),
      );
      if (timeLimit) {
        // Until the bombs hold every SVG lane of the worker (each runs until its kill at the time limit).
        await waitFor(
          'every SVG lane held by a bomb',
          async () => (await images.getActiveCount()) >= SVG_LANES,
          {
            timeoutMs: 60_000,
          },
        );
      } else {
        await sleep(500);
      }
      const mark = outputMark();
      // Three pictures one after another while every school's bombs are queued or running.
      const uploads: Answer[] = [];
      for (let i = 0; i < 3; i += 1) uploads.push(await normalUpload());
      const answers = await bombs;
      const checks = bitmapChecks(mark);
      results.push({ timeLimit, answers, uploads, checks });
      figures.push({
        phase,
        schools: schools.length,
        bombs: answers.length,
        'bomb answers': [...new Set(answers.map((b) => b.status))].join('/'),
        'slowest bomb (ms)': Math.max(...answers.map((b) => b.ms)),
        'picture, usual (ms)': usual,
        'picture during the bombs (ms)': uploads.map((u) => u.ms).join(', '),
        'its queue wait (ms)': checks.map((c) => c.queuedMs).join(', '),
        'SVG lanes busy at its check': checks.map((c) => `${c.svgLanesBusy}/${SVG_LANES}`).join(', '),
      });
    }
    console.log('SVG bombs from several schools, another school uploading a 64 x 64 picture');
    console.table(figures);
    // Why a bomb had no verdict (503), from the API's and the worker's logs: for the reader of a run.
    const unavailable = results.flatMap((r) => r.answers).filter((bomb) => bomb.status === 503);
    if (unavailable.length > 0) {
      const why = `${api.output()}\n${worker.output()}`
        .split('\n')
        .filter((line) => /did not finish|slot not available|svg rasteriser|QUEUE_UNAVAILABLE/.test(line));
      console.log(`${unavailable.length} bomb(s) answered 503:`, unavailable, why.slice(-10));
    }
    for (const { timeLimit, answers, uploads, checks } of results) {
      // A bomb gets its verdict (422) or waits its school's turn too long (429). A command Redis answered
      // late while it waited made one a 503 in a loaded CI run (tenant-image-slot.ts now keeps waiting).
      for (const bomb of answers) expect([422, 429]).toContain(bomb.status);
      for (const upload of uploads) expect(upload.status).toBe(200);
      expect(checks).toHaveLength(uploads.length);
      // Never behind a bomb: the defect made a picture wait in the queue for a bomb's kill at the time
      // limit (4-5 s where it usually takes 0.3 s). Its queue wait, not its time, so a loaded machine
      // (which slows the check itself) does not fail it.
      for (const check of checks) expect(check.queuedMs).toBeLessThan(QUEUE_WAIT_MS);
      // ...and the case did put it beside bombs holding every SVG lane, not after them.
      if (timeLimit) expect(Math.max(...checks.map((c) => c.svgLanesBusy))).toBe(SVG_LANES);
    }
  });
});
