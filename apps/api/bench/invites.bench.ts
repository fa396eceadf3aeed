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
 * The run itself is apps/api/bench/support/bulk-invite-run.ts (bench:cluster runs it on two workers).
 *
 * Environment: BENCH_INVITES, TEST_ADMIN_DATABASE_URL / DATABASE_URL (PostgreSQL server), REDIS_URL.
 */
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
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
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { createApp } from '../src/app.ts';
import { deleteKeys } from '../test/harness.ts';
import { startMailSink } from '../test/mail-sink.ts';
import { startWorkerProcess } from '../test/worker-process.ts';
import { printBulkInvite, runBulkInvite } from './support/bulk-invite-run.ts';

const ROWS = Number(process.env.BENCH_INVITES ?? 10_000);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TARGET_SECONDS = 30;

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
    const run = await runBulkInvite({
      base: `${api}/api/t/${tenant.domainPrefix}`,
      session: token,
      rows: ROWS,
      mail,
      tag: 'single',
      workerPids: () => [worker.child.pid],
    });
    console.log(`bulk invite: ${ROWS} rows`);
    printBulkInvite(run, TARGET_SECONDS);
    console.log(`  ${cpus().length} cores`);
    failed = !run.exactlyOnce;
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
