/**
 * Benchmark of the bulk invite path: BENCH_INVITES rows (default 10,000) posted to
 * POST /user/bulk-invite as an owner would, sent by the real worker (apps/worker/src/main.ts, a child
 * process) to a real SMTP server (smtp-server, in this process), the progress followed with
 * GET /user/bulk-invite/:id as the page does. Prints the total seconds (request to last e-mail), the
 * e-mails per second, the progress updates seen, and checks that every address got exactly one
 * e-mail (PASS/FAIL, exit code 1 on FAIL). Target: at most 30 s.
 *
 *   npm run bench:invites
 *
 * Environment: BENCH_INVITES, TEST_ADMIN_DATABASE_URL / DATABASE_URL (PostgreSQL server), REDIS_URL.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { createLogger, parseConfig } from '@helix/server';
import { createDb } from '@helix/server/db';
import { COMMAND_CLIENT_OPTIONS, createRedis, redisReady } from '@helix/server/redis';
import { JobQueue } from '@helix/server/queue/job-queue';
import { createSession } from '@helix/server/sessions/session.service';
import {
  CUSTOMER_PLAN_PERMISSIONS,
  createPlan,
  createTenant,
  createUser,
  seedRoles,
} from '@helix/server/testing/factories';
import { BulkInviteBatchView, BulkInviteStarted } from '@helix/shared/schemas/invite';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { createApp } from '../src/app.ts';
import { deleteKeys } from '../test/harness.ts';
import { startMailSink } from '../test/mail-sink.ts';
import { startWorkerProcess } from '../test/worker-process.ts';

const ROWS = Number(process.env.BENCH_INVITES ?? 10_000);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TARGET_SECONDS = 30;

/** CPU seconds (user + system) a process has used, from /proc (Linux); null elsewhere. */
function cpuSecondsOf(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

async function main() {
  const database = await createTestDatabase('helix_bench_invites');
  const prefix = `helixbench-${randomBytes(4).toString('hex')}`;
  const mail = await startMailSink();
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    PUBLIC_URL: 'http://127.0.0.1:3000',
  });
  const db = createDb(database.url);
  const redis = createRedis(REDIS_URL, COMMAND_CLIENT_OPTIONS);
  await redisReady(redis); // no offline queue: connected before the first call
  const queueConnection = createRedis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new JobQueue(queueConnection, prefix);
  const app = createApp({ config, db, redis, queue, logger: createLogger('silent', 'bench') });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const worker = await startWorkerProcess({
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    SMTP_URL: mail.url,
    PUBLIC_URL: config.PUBLIC_URL,
  });

  let failed = false;
  try {
    await seedRoles(db);
    const plan = await createPlan(db, { permissions: CUSTOMER_PLAN_PERMISSIONS, userLimit: ROWS + 1 });
    const tenant = await createTenant(db, { plan, name: 'Bench School' });
    await db.tenantSubscription.update({ where: { tenantId: tenant.id }, data: { userLimit: ROWS + 1 } });
    const owner = await createUser(db, { tenant, isOwner: true, roles: ['Admin'] });
    const { token } = await createSession(db, { userId: owner.id, rememberMe: false });
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const base = `${api}/api/t/${tenant.domainPrefix}`;
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      name: `Invitee ${i}`,
      email: `invitee${i}@bench.test`,
      note: 'Welcome to the course',
    }));

    const load = loadavg()[0]!;
    const workerCpuBefore = cpuSecondsOf(worker.child.pid);
    const ownCpuBefore = process.cpuUsage();
    const started = performance.now();
    const res = await fetch(`${base}/user/bulk-invite`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ users: rows }),
    });
    if (res.status !== 202) throw new Error(`bulk invite answered ${res.status}: ${await res.text()}`);
    const { batchId } = BulkInviteStarted.parse(await res.json());
    const acceptedMs = performance.now() - started;

    const updates: Array<{ seconds: number; sent: number }> = [];
    let view: BulkInviteBatchView;
    for (;;) {
      const poll = await fetch(`${base}/user/bulk-invite/${batchId}`, { headers });
      view = BulkInviteBatchView.parse(await poll.json());
      const last = updates[updates.length - 1];
      if (!last || last.sent !== view.sent) {
        updates.push({ seconds: (performance.now() - started) / 1000, sent: view.sent });
      }
      if (view.status === 'done') break;
      if (performance.now() - started > 300_000) throw new Error('no end after 300 s');
      await new Promise((r) => setTimeout(r, 500));
    }
    await mail.waitFor(ROWS, 10_000).catch(() => undefined);
    const seconds = (performance.now() - started) / 1000;
    const workerCpu = (cpuSecondsOf(worker.child.pid) ?? NaN) - (workerCpuBefore ?? NaN);
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const benchCpu = (ownCpu.user + ownCpu.system) / 1e6;

    const counts = mail.countsByAddress();
    const missing = rows.filter((r) => (counts.get(r.email) ?? 0) === 0).length;
    const doubled = rows.filter((r) => (counts.get(r.email) ?? 0) > 1).length;
    const exactlyOnce = missing === 0 && doubled === 0 && mail.mails.length === ROWS;

    console.log(`bulk invite: ${ROWS} rows`);
    console.log(`  request accepted in ${(acceptedMs / 1000).toFixed(2)} s`);
    console.log(`  ${mail.mails.length} e-mails received, total ${seconds.toFixed(1)} s`);
    console.log(`  ${(ROWS / seconds).toFixed(0)} e-mails per second`);
    console.log(`  ${updates.length} progress updates seen (every 0.5 s poll that changed):`);
    console.log(`    ${updates.map((u) => `${u.seconds.toFixed(1)}s:${u.sent}`).join(' ')}`);
    console.log(`  batch: sent ${view.sent}, failed ${view.failed}`);
    console.log(
      `  each address exactly one e-mail: ${exactlyOnce ? 'PASS' : 'FAIL'} (missing ${missing}, doubled ${doubled})`,
    );
    console.log(`  target <= ${TARGET_SECONDS} s: ${seconds <= TARGET_SECONDS ? 'met' : 'MISSED'}`);
    console.log(
      `  CPU: worker ${workerCpu.toFixed(1)} s (${((workerCpu / ROWS) * 1000).toFixed(2)} ms per e-mail), ` +
        `API + SMTP server ${benchCpu.toFixed(1)} s; load average at start ${load.toFixed(1)} on ${cpus().length} cores`,
    );
    failed = !exactlyOnce;
  } finally {
    await worker.kill('SIGTERM');
    await new Promise((resolve) => server.close(resolve));
    await queue.close();
    queueConnection.disconnect();
    await deleteKeys(redis, `${prefix}:*`);
    await redis.quit();
    await db.$disconnect();
    await dropDatabase(database.name);
    await mail.stop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
