import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkInviteBatchView, BulkInviteStarted } from '@helix/shared/schemas/invite';
import { seedRoles } from '@helix/server/testing/factories';
import { createHarness, deleteKeys, type Harness } from '../../test/harness.ts';
import { startMailSink } from '../../test/mail-sink.ts';
import { bearer, customer, type Caller } from '../../test/models.ts';
import { startWorkerProcess } from '../../test/worker-process.ts';

/**
 * Exactly one e-mail per row with the real worker (apps/worker/src/main.ts, a child process) killed
 * with SIGKILL in the middle of a batch: jobs active, messages half-way through SMTP. After a restart
 * every invitee has exactly one e-mail.
 */
let h: Harness;
let mail: Awaited<ReturnType<typeof startMailSink>>;
let owner: Caller;
const ROWS = 200;

beforeAll(async () => {
  mail = await startMailSink({ delayRcptMs: 5 });
  h = await createHarness();
  await seedRoles(h.db);
  owner = await customer(h);
  await h.db.tenantSubscription.update({
    where: { tenantId: owner.tenant.id },
    data: { userLimit: ROWS + 1 },
  });
});
afterAll(async () => {
  await h?.close();
  await mail?.stop();
});

const sentCount = (batchId: number) => h.db.invite.count({ where: { batchId, sentAt: { not: null } } });

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('bulk invite with the worker killed mid-batch', () => {
  it('sends every invitee exactly one e-mail', { timeout: 180_000 }, async () => {
    const env = {
      DATABASE_URL: h.config.DATABASE_URL,
      REDIS_URL: h.config.REDIS_URL,
      REDIS_PREFIX: h.config.REDIS_PREFIX,
      SMTP_URL: mail.url,
      PUBLIC_URL: h.config.PUBLIC_URL,
    };
    let worker = await startWorkerProcess(env);
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      name: `Killed ${i}`,
      email: `killed${i}@example.test`,
    }));
    const res = await request(h.app)
      .post(`${owner.base}/user/bulk-invite`)
      .set(bearer(owner.token))
      .send({ users: rows });
    expect(res.status).toBe(202);
    const { batchId } = BulkInviteStarted.parse(res.body);

    // Let some go out, then hold every conversation at RCPT and kill the worker there.
    await mail.waitFor(30, 60_000);
    mail.hold();
    await until(() => mail.heldCount() > 0, 20_000, 'conversations held at RCPT');
    await until(async () => (await sentCount(batchId)) === mail.mails.length, 10_000, 'sent markers');
    await worker.kill('SIGKILL');
    const before = mail.mails.length;
    expect(before).toBeLessThan(ROWS);
    // Release only once the sink has seen the killed worker's connections close, so a held message
    // counts as it would on a real server: not taken, since no 250 was sent.
    await until(() => mail.openConnections() === 0, 10_000, 'the killed worker’s connections to close');
    mail.release();

    worker = await startWorkerProcess(env);
    try {
      let view: BulkInviteBatchView | undefined;
      await until(
        async () => {
          const poll = await request(h.app)
            .get(`${owner.base}/user/bulk-invite/${batchId}`)
            .set(bearer(owner.token));
          view = BulkInviteBatchView.parse(poll.body);
          return view.status === 'done';
        },
        150_000,
        'the batch to finish after the restart',
      );
      expect(view).toMatchObject({ total: ROWS, sent: ROWS, failed: 0 });
      await mail.waitFor(ROWS, 5_000);
      await new Promise((r) => setTimeout(r, 500));
      const counts = mail.countsByAddress();
      expect(rows.filter((r) => counts.get(r.email) !== 1)).toEqual([]);
      expect(mail.mails.length).toBe(ROWS);
    } finally {
      await worker.kill('SIGTERM');
    }
  });

  it(
    'finishes a batch whose queued jobs were lost (Redis emptied) when the worker starts',
    { timeout: 120_000 },
    async () => {
      await h.db.tenantSubscription.update({
        where: { tenantId: owner.tenant.id },
        data: { userLimit: 300 },
      });
      const rows = Array.from({ length: 20 }, (_, i) => ({
        name: `Lost ${i}`,
        email: `lost${i}@example.test`,
      }));
      const res = await request(h.app)
        .post(`${owner.base}/user/bulk-invite`)
        .set(bearer(owner.token))
        .send({ users: rows });
      expect(res.status).toBe(202);
      const { batchId } = BulkInviteStarted.parse(res.body);
      // No worker was running: the dispatch job waits in Redis. Lose it, as a Redis without persistence would.
      await deleteKeys(h.redis, `${h.config.REDIS_PREFIX}:bulk-invite:*`);
      const worker = await startWorkerProcess({
        DATABASE_URL: h.config.DATABASE_URL,
        REDIS_URL: h.config.REDIS_URL,
        REDIS_PREFIX: h.config.REDIS_PREFIX,
        SMTP_URL: mail.url,
        PUBLIC_URL: h.config.PUBLIC_URL,
      });
      try {
        await until(async () => (await sentCount(batchId)) === rows.length, 60_000, 'the recovered batch');
        await new Promise((r) => setTimeout(r, 500));
        const counts = mail.countsByAddress();
        expect(rows.filter((r) => counts.get(r.email) !== 1)).toEqual([]);
      } finally {
        await worker.kill('SIGTERM');
      }
    },
  );
});
