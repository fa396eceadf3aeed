import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkInviteStarted } from '@helix/shared/schemas/invite';
import { MAIL_RETRY, retryWindowMs } from '@helix/shared';
import { seedRoles } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../test/harness.ts';
import { startMailSink } from '../test/mail-sink.ts';
import { bearer, customer, type Caller } from '../test/models.ts';
import { startWorkerProcess } from '../test/worker-process.ts';
import { batchDone, linksThatDoNotOpen, printFigures } from './support/invite-faults.ts';

/**
 * The SMTP server down for 75 s (longer than the old bulk retry window of 6 attempts over ~62 s) while
 * a bulk invite and single invites are sent by the real worker process, then back on the same port:
 * every invitation arrives exactly once, none is marked failed, and the worker finishes the batch.
 * The retry policy is the real one (MAIL_RETRY) with its wait capped at 10 s by JOB_RETRY_MAX_DELAY_MS,
 * so the first retries land soon after the server is back (production waits up to 5 minutes).
 */
const ROWS = 300;
const SINGLES = 5;
const OUTAGE_MS = 75_000;
const RETRY_CAP_MS = 10_000;
let h: Harness;
let port: number;
let mail: Awaited<ReturnType<typeof startMailSink>> | undefined;
let owner: Caller;

beforeAll(async () => {
  // A port where no mail server listens (one is started there when the outage ends).
  const probe = await startMailSink();
  port = Number(new URL(probe.url).port);
  await probe.stop();
  h = await createHarness({ PUBLIC_URL: 'http://portal.test' });
  await seedRoles(h.db);
  owner = await customer(h);
  await h.db.tenantSubscription.update({
    where: { tenantId: owner.tenant.id },
    data: { userLimit: ROWS + SINGLES + 10 },
  });
});
afterAll(async () => {
  await h?.close();
  await mail?.stop();
});

describe('an SMTP outage longer than the old bulk retry window', () => {
  it('delivers every invitation exactly once when the server is back', async () => {
    const started = Date.now();
    const worker = await startWorkerProcess({
      DATABASE_URL: h.config.DATABASE_URL,
      REDIS_URL: h.config.REDIS_URL,
      REDIS_PREFIX: h.config.REDIS_PREFIX,
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      PUBLIC_URL: h.config.PUBLIC_URL,
      JOB_RETRY_MAX_DELAY_MS: String(RETRY_CAP_MS),
    });
    try {
      const rows = Array.from({ length: ROWS }, (_, i) => ({
        name: `Outage ${i}`,
        email: `outage${i}@example.test`,
      }));
      const res = await request(h.app)
        .post(`${owner.base}/user/bulk-invite`)
        .set(bearer(owner.token))
        .send({ users: rows });
      expect(res.status).toBe(202);
      const { batchId } = BulkInviteStarted.parse(res.body);
      const singles = Array.from({ length: SINGLES }, (_, i) => `single${i}@example.test`);
      for (const address of singles) {
        const invited = await request(h.app)
          .post(`${owner.base}/user/invite`)
          .set(bearer(owner.token))
          .send({ name: 'Single Invitee', email: address });
        expect(invited.status).toBe(201);
      }
      const downSince = Date.now();

      // Down for the whole outage: the rows keep being retried and none is given up.
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      const failedDuringOutage = await h.db.invite.count({ where: { failedAt: { not: null } } });
      const sentDuringOutage = await h.db.invite.count({ where: { sentAt: { not: null } } });
      mail = await startMailSink({ port });
      const upAt = Date.now();

      const expected = ROWS + SINGLES;
      await mail.waitFor(1, 60_000);
      const firstAfterUp = Date.now() - upAt;
      await mail.waitFor(expected, 60_000);
      const allAfterUp = Date.now() - upAt;
      const batch = await batchDone(h, batchId, 30_000);
      const counts = mail.countsByAddress();
      const everyone = [...rows.map((r) => r.email), ...singles];
      const notOnce = everyone.filter((address) => counts.get(address) !== 1);
      const rowJobs = await h.deps.queue.queueOf('bulk-invite').getCompleted(0, ROWS + 10);
      const attempts = rowJobs.filter((j) => j.name === 'bulk-invite-row').map((j) => j.attemptsMade + 1);
      const notOpening = await linksThatDoNotOpen(h, mail.mails);

      printFigures('SMTP outage during a bulk invite and single invites', {
        'rows (bulk + single)': `${ROWS} + ${SINGLES}`,
        'SMTP down (s)': ((upAt - downSince) / 1000).toFixed(1),
        'old bulk retry window (s)': 62,
        'retry policy': `${MAIL_RETRY.attempts} attempts, ${MAIL_RETRY.baseMs / 1000} s doubling, wait capped at ${RETRY_CAP_MS / 1000} s here (JOB_RETRY_MAX_DELAY_MS; 5 min in production, ~${Math.round(retryWindowMs(MAIL_RETRY) / 60_000)} min in all)`,
        'attempts per row (max)': Math.max(...attempts),
        'failed during the outage': failedDuringOutage,
        'first e-mail after SMTP up (s)': (firstAfterUp / 1000).toFixed(1),
        'all delivered after SMTP up (s)': (allAfterUp / 1000).toFixed(1),
        delivered: mail.mails.length,
        duplicates: mail.mails.length - counts.size,
        'links that do not open': notOpening.length,
        'batch done by the worker': `${batch.status} (${batch.processed} sent, ${batch.failed} failed)`,
        'time (s)': ((Date.now() - started) / 1000).toFixed(1),
      });

      expect(sentDuringOutage).toBe(0);
      expect(failedDuringOutage).toBe(0);
      expect(Math.max(...attempts)).toBeGreaterThan(6); // more tries than the old window allowed
      expect(notOnce).toEqual([]);
      expect(mail.mails).toHaveLength(expected);
      expect(notOpening).toEqual([]);
      expect(batch).toMatchObject({ status: 'done', processed: ROWS, failed: 0 });
    } finally {
      await worker.kill('SIGTERM');
    }
  });
});
