import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BulkInviteStarted } from '@helix/shared/schemas/invite';
import { createDb, type Db } from '@helix/server/db';
import { createSession } from '@helix/server/sessions/session.service';
import {
  createPlan,
  createTenant,
  createUser,
  CUSTOMER_PLAN_PERMISSIONS,
  seedRoles,
} from '@helix/server/testing/factories';
import { startStack, type InstanceName, type Stack } from '@helix/stack/stack';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { createEmbedFixture, recordedViews, type EmbedFixture } from '../../test/embed-fixture.ts';
import { startMailSink } from '../../test/mail-sink.ts';
import { pacedEmbedLoads, since, summarise, type Sample } from './paced-loads.ts';

/**
 * A rolling restart of `npm run start:cluster` (two API processes, two workers, the viewer, nginx),
 * shared by apps/api/bench/rolling-restart.bench.ts and apps/api/faults/rolling-restart.fault.test.ts:
 * the API processes restarted one at a time under paced embed page loads through nginx, then the
 * workers one at a time in the middle of a bulk invite, mails counted by an SMTP sink.
 */
export interface RollingCluster {
  stack: Stack;
  db: Db;
  fixture: EmbedFixture;
  /** The tenant owner's session (bearer token) and the tenant's API base. */
  session: string;
  base: string;
  mail: Awaited<ReturnType<typeof startMailSink>>;
  close(): Promise<void>;
}

export async function startRollingCluster(options: {
  compiled: boolean;
  build?: boolean | 'auto';
  inviteRows: number;
  /** The SMTP sink's delay per recipient (stretches the bulk invite so both workers restart mid-way). */
  delayRcptMs?: number;
  /** The cluster's shape (default two API processes, two workers: `npm run start:cluster`). */
  cluster?: { apis: number; workers: number };
  /** Extra environment for the processes. */
  env?: Record<string, string>;
}): Promise<RollingCluster> {
  const database = await createTestDatabase('helix_rolling');
  const mail = await startMailSink({ delayRcptMs: options.delayRcptMs ?? 2 });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'helix-rolling-'));
  const db = createDb(database.url);
  let stack: Stack | undefined;
  const close = async () => {
    await stack?.stop();
    await db.$disconnect();
    await mail.stop();
    await dropDatabase(database.name).catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  };
  // Without a build (the fault suite): a web app and a viewer of one page each, as cluster.test.ts does.
  const builds: Record<string, string> = {};
  if (!options.compiled && options.build !== true) {
    builds.WEB_DIST_DIR = path.join(dataDir, 'web');
    builds.VIEWER_DIST = path.join(dataDir, 'viewer');
    for (const dir of Object.values(builds)) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Helix</title><head></head>');
    }
  }
  try {
    await seedRoles(db);
    const fixture = await createEmbedFixture(db);
    await rm(fixture.storageDir, { recursive: true, force: true });
    // The school that invites: a customer plan with room for every row, its admin's session.
    const plan = await createPlan(db, {
      permissions: CUSTOMER_PLAN_PERMISSIONS,
      userLimit: options.inviteRows * 2 + 100,
    });
    const tenant = await createTenant(db, { plan, name: 'Rolling school' });
    await db.tenantSubscription.update({
      where: { tenantId: tenant.id },
      data: { userLimit: options.inviteRows * 2 + 100 },
    });
    const admin = await createUser(db, { tenant, roles: ['Admin'] });
    const { token: session } = await createSession(db, { userId: admin.id, rememberMe: false });
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      smtpUrl: mail.url,
      build: options.build ?? false,
      compiled: options.compiled,
      seed: false,
      quiet: true,
      dataDir,
      stripePort: 0,
      stripePersist: false,
      cluster: options.cluster ?? { apis: 2, workers: 2 },
      env: {
        NODE_ENV: 'test',
        // The workers' "worker started" line tells a restarted worker is ready.
        LOG_LEVEL: 'info',
        REDIS_PREFIX: `helix-rolling-${randomBytes(3).toString('hex')}`,
        PUBLIC_URL: 'http://portal.test',
        // Every load comes from one address (nginx's) for one link.
        EMBED_RATE_LIMIT_MAX: '100000000',
        EMBED_TOKEN_RATE_LIMIT_MAX: '100000000',
        VIEWS_PER_ADDRESS_PER_HOUR: '1000000',
        VIEWS_PER_TENANT_ADDRESS_PER_HOUR: '1000000',
        RATE_LIMIT_MAX: '100000000',
        ...builds,
        ...options.env,
      },
    });
    return {
      stack,
      db,
      fixture,
      session,
      base: `/api/t/${tenant.domainPrefix}`,
      mail,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The upstream of each request nginx logged, from line `from` on. */
function upstreamsSince(stack: Stack, from: number): string[] {
  return readFileSync(stack.cluster!.nginx.accessLog, 'utf8')
    .split('\n')
    .slice(from)
    .flatMap((line) => line.match(/upstream=(\S+)/)?.[1]?.split(', ') ?? []);
}
const logLines = (stack: Stack) =>
  readFileSync(stack.cluster!.nginx.accessLog, 'utf8').split('\n').length - 1;

export interface ApiRollResult {
  samples: Sample[];
  /** Samples that started while a process was being restarted (from its SIGTERM to nginx using it again). */
  during: Sample[];
  restarts: Array<{ name: string; drainSeenMs: number; stoppedMs: number; readyMs: number; backMs: number }>;
  viewerLoads: number;
  views: number;
}

/**
 * Paced embed page loads through nginx (detail call + viewer model lookup), `warmMs` before, then each
 * API process restarted in turn (stack.restart: SIGTERM, drain, stop, start, ready), each time waiting
 * until nginx sends it requests again before the next one, then `warmMs` after. Views are then read
 * from PostgreSQL once the workers flushed them (exact: one per viewer load answered).
 */
export async function rollApisUnderLoad(
  cluster: RollingCluster,
  options: { perSecond: number; warmMs: number },
): Promise<ApiRollResult> {
  const { stack } = cluster;
  const loads = pacedEmbedLoads({
    api: stack.apiUrl,
    token: cluster.fixture.token,
    urlModelName: cluster.fixture.urlModelName,
    perSecond: options.perSecond,
    origin: stack.viewerUrl,
  });
  const windows: Array<[number, number]> = [];
  const restarts: ApiRollResult['restarts'] = [];
  try {
    await sleep(options.warmMs);
    for (const [name, url] of Object.entries(stack.cluster!.apis)) {
      const begin = since(loads.t0);
      const upstream = new URL(url).host;
      // Draining is visible on the readiness check while the process still serves.
      let drainSeenMs = -1;
      const watchDrain = (async () => {
        while (drainSeenMs < 0 && since(loads.t0) - begin < 30_000) {
          try {
            const res = await fetch(`${url}/api/health/ready`, { signal: AbortSignal.timeout(1000) });
            const body = (await res.json()) as { status?: string };
            if (res.status === 503 && body.status === 'draining') drainSeenMs = since(loads.t0) - begin;
          } catch {
            return; // closed before it was seen
          }
          await sleep(50);
        }
      })();
      const restarted = await stack.restart(name as InstanceName);
      await watchDrain;
      // nginx uses the new process again (a refused connection may have left it out for fail_timeout).
      const from = logLines(stack);
      const backStart = since(loads.t0);
      while (!upstreamsSince(stack, from).includes(upstream)) {
        if (since(loads.t0) - backStart > 30_000) throw new Error(`nginx did not use ${name} again`);
        await sleep(100);
      }
      windows.push([begin, since(loads.t0)]);
      restarts.push({
        name,
        drainSeenMs: Math.round(drainSeenMs),
        stoppedMs: Math.round(restarted.stoppedMs),
        readyMs: Math.round(restarted.readyMs),
        backMs: Math.round(since(loads.t0) - backStart),
      });
    }
    await sleep(options.warmMs);
  } finally {
    await loads.stop();
  }
  const samples = loads.samples;
  const during = samples.filter((s) => windows.some(([a, b]) => s.at >= a && s.at <= b));
  const viewerLoads = samples.filter((s) => s.kind === 'viewer' && s.status === 200).length;
  // The workers flush buffered views every 2 s.
  let views = 0;
  for (let waited = 0; waited < 30_000; waited += 500) {
    views = await recordedViews(cluster.db, cluster.fixture.modelId);
    if (views >= viewerLoads) {
      await sleep(2500); // one more flush: nothing more may come
      views = await recordedViews(cluster.db, cluster.fixture.modelId);
      break;
    }
    await sleep(500);
  }
  return { samples, during, restarts, viewerLoads, views };
}

export interface WorkerRollResult {
  rows: number;
  expected: number;
  delivered: number;
  doubled: number;
  lost: number;
  restarts: Array<{
    name: string;
    mailsAt: number;
    stoppedMs: number;
    readyMs: number;
    exitCode: number | null;
  }>;
  batch: { status: string; processed: number; failed: number };
  seconds: number;
}

/**
 * A bulk invite of `rows` rows through nginx; each worker restarted in turn (graceful: it finishes the
 * rows it is sending and hands the rest over) once a share of the e-mails arrived; then every address
 * must have exactly one e-mail.
 */
export async function rollWorkersMidInvite(
  cluster: RollingCluster,
  options: { rows: number; timeoutMs: number },
): Promise<WorkerRollResult> {
  const { stack, mail } = cluster;
  const started = Date.now();
  const tag = randomBytes(3).toString('hex');
  const rows = Array.from({ length: options.rows }, (_, i) => ({
    name: `Rolling ${i}`,
    email: `rolling-${tag}-${i}@example.test`,
  }));
  const before = mail.mails.length;
  const res = await fetch(`${stack.apiUrl}${cluster.base}/user/bulk-invite`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${cluster.session}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ users: rows }),
  });
  if (res.status !== 202) throw new Error(`bulk invite answered ${res.status}: ${await res.text()}`);
  const { batchId } = BulkInviteStarted.parse(await res.json());
  const restarts: WorkerRollResult['restarts'] = [];
  const workers = stack.cluster!.workers;
  // The first at a quarter of the e-mails, each next one as soon as the one before is ready again.
  await mail.waitFor(before + Math.round(options.rows / 4), options.timeoutMs);
  for (const name of workers) {
    const mailsAt = mail.mails.length - before;
    const restarted = await stack.restart(name as InstanceName);
    restarts.push({
      name,
      mailsAt,
      stoppedMs: Math.round(restarted.stoppedMs),
      readyMs: Math.round(restarted.readyMs),
      exitCode: restarted.exit.code,
    });
  }
  const deadline = Date.now() + options.timeoutMs;
  let batch = await cluster.db.bulkInviteBatch.findUniqueOrThrow({ where: { id: batchId } });
  while (batch.status !== 'done' && Date.now() < deadline) {
    await sleep(250);
    batch = await cluster.db.bulkInviteBatch.findUniqueOrThrow({ where: { id: batchId } });
  }
  await sleep(1500); // any straggler
  const counts = new Map<string, number>();
  for (const m of mail.mails.slice(before)) {
    for (const to of m.to) counts.set(to, (counts.get(to) ?? 0) + 1);
  }
  const wanted = rows.map((r) => r.email.toLowerCase());
  return {
    rows: options.rows,
    expected: wanted.length,
    delivered: wanted.filter((a) => counts.has(a)).length,
    doubled: wanted.filter((a) => (counts.get(a) ?? 0) > 1).length,
    lost: wanted.filter((a) => !counts.has(a)).length,
    restarts,
    batch: { status: batch.status, processed: batch.processed, failed: batch.failed },
    seconds: (Date.now() - started) / 1000,
  };
}

export { summarise };
