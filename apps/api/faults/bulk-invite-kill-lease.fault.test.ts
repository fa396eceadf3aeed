import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS } from '@helix/shared';
import { BulkInviteStarted } from '@helix/shared/schemas/invite';
import { seedRoles } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../test/harness.ts';
import { startMailSink } from '../test/mail-sink.ts';
import { bearer, customer, type Caller } from '../test/models.ts';
import { startWorkerProcess } from '../test/worker-process.ts';
import { batchDone, printFigures } from './support/invite-faults.ts';

/**
 * The real worker SIGKILLed in the middle of bulk invites, so that the rows it held are looked at again
 * as their leases end: the restarted worker's rows jobs find them held and hand them to row jobs
 * delayed until each lease's end, which then run on the boundary where a claim and a lease check used
 * to disagree (the row answered 'skipped' and was never sent, its batch never done). Rounds are
 * repeated until row jobs ran within WINDOW_MS of their row's lease end. Nothing may be missing, every
 * batch must reach done, and a second copy goes only to a row in flight at a kill.
 */
const ROWS = 400;
const MAX_ROUNDS = 3;
/** A row job started this close to its row's lease end counts as hitting the boundary. */
const WINDOW_MS = 25;
let h: Harness;
let mail: Awaited<ReturnType<typeof startMailSink>>;
let owner: Caller;
let env: Parameters<typeof startWorkerProcess>[0];

beforeAll(async () => {
  mail = await startMailSink({ delayRcptMs: 5 });
  h = await createHarness({ PUBLIC_URL: 'http://portal.test' });
  await seedRoles(h.db);
  owner = await customer(h);
  await h.db.tenantSubscription.update({
    where: { tenantId: owner.tenant.id },
    data: { userLimit: ROWS * MAX_ROUNDS + 100 },
  });
  env = {
    DATABASE_URL: h.config.DATABASE_URL,
    REDIS_URL: h.config.REDIS_URL,
    REDIS_PREFIX: h.config.REDIS_PREFIX,
    SMTP_URL: mail.url,
    PUBLIC_URL: h.config.PUBLIC_URL,
  };
});
afterAll(async () => {
  await h?.close();
  await mail?.stop();
});

/** The batch's rows leased to a sender and not sent, with when each lease ends (ms since epoch). */
const inFlight = async (batchId: number) =>
  h.db.$queryRaw<Array<{ id: number; until: number }>>`
    SELECT id, (EXTRACT(EPOCH FROM "sendingUntil") * 1000)::float8 AS until FROM "Invite"
    WHERE "batchId" = ${batchId} AND "sentAt" IS NULL
      AND "sendingUntil" > (clock_timestamp() AT TIME ZONE 'UTC')`;

describe('bulk invite with kills timed so that row jobs meet their leases’ ends', () => {
  it('misses nobody and finishes every batch, round after round, until the boundary was hit', async () => {
    const figures: Array<Record<string, string | number>> = [];
    let hits = 0;
    for (let round = 1; round <= MAX_ROUNDS && hits === 0; round += 1) {
      const started = Date.now();
      const before = mail.mails.length;
      let worker = await startWorkerProcess(env);
      try {
        const rows = Array.from({ length: ROWS }, (_, i) => ({
          name: `Lease ${round} ${i}`,
          email: `lease${round}-${i}@example.test`,
        }));
        const res = await request(h.app)
          .post(`${owner.base}/user/bulk-invite`)
          .set(bearer(owner.token))
          .send({ users: rows });
        expect(res.status).toBe(202);
        const { batchId } = BulkInviteStarted.parse(res.body);

        await mail.waitFor(before + ROWS / 2, 90_000);
        await worker.kill('SIGKILL');
        const held = await inFlight(batchId);
        worker = await startWorkerProcess(env);

        const batch = await batchDone(h, batchId, 150_000);
        const counts = mail.countsByAddress();
        const missing = rows.filter((r) => !counts.has(r.email));
        const duplicates = rows.reduce((sum, r) => sum + Math.max((counts.get(r.email) ?? 0) - 1, 0), 0);
        const heldIds = new Set(held.map((r) => r.id));
        const emailOf = new Map(
          (
            await h.db.invite.findMany({
              where: { batchId },
              select: { id: true, user: { select: { email: true } } },
            })
          ).map((i) => [i.user.email, i.id]),
        );
        const repeatedNotInFlight = rows.filter(
          (r) => (counts.get(r.email) ?? 0) > 1 && !heldIds.has(emailOf.get(r.email)!),
        );

        // The row jobs that ran for the rows held at the kill, against each lease's end.
        const queue = h.deps.queue.queueFor(JOBS.bulkInviteRow);
        const offsets: number[] = [];
        for (const row of held) {
          const job = await queue.getJob(`invite-${row.id}`);
          if (job?.processedOn) offsets.push(job.processedOn - row.until);
        }
        const near = offsets.filter((o) => Math.abs(o) <= WINDOW_MS);
        hits += near.length;
        figures.push({
          round,
          rows: ROWS,
          'held at the kill': held.length,
          'row jobs for held rows': offsets.length,
          [`row jobs within ${WINDOW_MS} ms of the lease end`]: near.length,
          'closest to the lease end (ms)': offsets.length
            ? offsets.reduce((a, b) => (Math.abs(b) < Math.abs(a) ? b : a)).toFixed(0)
            : '-',
          missing: missing.length,
          duplicates,
          batch: `${batch.status} (${batch.processed} sent, ${batch.failed} failed)`,
          'time (s)': ((Date.now() - started) / 1000).toFixed(1),
        });

        expect(missing).toEqual([]);
        expect(repeatedNotInFlight).toEqual([]);
        expect(duplicates).toBeLessThanOrEqual(held.length);
        expect(batch).toMatchObject({ status: 'done', processed: ROWS, failed: 0, total: ROWS });
      } finally {
        await worker.kill('SIGTERM');
      }
    }
    for (const f of figures) printFigures(`bulk invite, kill timed around lease ends, round ${f.round}`, f);
    expect(hits).toBeGreaterThan(0);
  });
});
