import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkInviteStarted } from '@helix/shared/schemas/invite';
import { seedRoles } from '@helix/server/testing/factories';
import { createHarness, deleteKeys, type Harness } from '../test/harness.ts';
import { startMailSink } from '../test/mail-sink.ts';
import { bearer, customer, type Caller } from '../test/models.ts';
import { startWorkerProcess } from '../test/worker-process.ts';
import { batchDone, joinWith, linksThatDoNotOpen, printFigures, tokenOf } from './support/invite-faults.ts';

/**
 * The real worker (apps/worker/src/main.ts, a child process) SIGKILLed twice during a 2,000-row bulk
 * invite, at about a third and two thirds of the e-mails, with messages half-way through SMTP. Nothing
 * may be missing; an address may get a second copy only if its row was in flight (its send leased and
 * not marked sent) at a kill; every copy's link must open the invitation.
 */
const ROWS = 2_000;
/**
 * How long each stage may take before the case calls it stuck (a third of the e-mails, the batch done):
 * about 30 s on an idle machine, several times that with two CI runs side by side. Not a speed figure
 * (the bench is), only a bound on waiting for a batch that never ends.
 */
const LIVENESS_MS = 240_000;
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
    data: { userLimit: ROWS + 100 },
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

/** The batch's rows leased to a sender and not marked sent: what a kill can repeat. */
const inFlight = async (batchId: number) =>
  (
    await h.db.$queryRaw<Array<{ id: number }>>`
      SELECT id FROM "Invite" WHERE "batchId" = ${batchId} AND "sentAt" IS NULL
        AND "sendingUntil" > (clock_timestamp() AT TIME ZONE 'UTC')`
  ).map((r) => r.id);

const bulkInvite = (rows: Array<{ name: string; email: string }>) =>
  request(h.app).post(`${owner.base}/user/bulk-invite`).set(bearer(owner.token)).send({ users: rows });

describe('bulk invite with the worker SIGKILLed twice', () => {
  it(
    'misses nobody, repeats only rows in flight, and every copy’s link opens the invitation',
    async () => {
      const started = Date.now();
      let worker = await startWorkerProcess(env);
      try {
        const rows = Array.from({ length: ROWS }, (_, i) => ({
          name: `Killed ${i}`,
          email: `killed${i}@example.test`,
        }));
        const res = await bulkInvite(rows);
        expect(res.status).toBe(202);
        const { batchId } = BulkInviteStarted.parse(res.body);

        const killedInFlight = new Set<number>();
        const inFlightAtKill: number[] = [];
        const mailsAtKill: number[] = [];
        for (const share of [1 / 3, 2 / 3]) {
          await mail.waitFor(Math.round(ROWS * share), LIVENESS_MS);
          await worker.kill('SIGKILL');
          mailsAtKill.push(mail.mails.length);
          const ids = await inFlight(batchId);
          inFlightAtKill.push(ids.length);
          for (const id of ids) killedInFlight.add(id);
          worker = await startWorkerProcess(env);
        }

        const batch = await batchDone(h, batchId, LIVENESS_MS);
        const counts = mail.countsByAddress();
        const missing = rows.filter((r) => !counts.has(r.email));
        const repeated = rows.filter((r) => (counts.get(r.email) ?? 0) > 1);
        const duplicates = mail.mails.length - counts.size;
        const inviteOf = new Map(
          (
            await h.db.invite.findMany({
              where: { batchId },
              select: { id: true, user: { select: { email: true } } },
            })
          ).map((i) => [i.user.email, i.id]),
        );
        const repeatedNotInFlight = repeated.filter((r) => !killedInFlight.has(inviteOf.get(r.email)!));

        // Every copy carries its row's one link, and each link opens the invitation...
        const notOpening = await linksThatDoNotOpen(h, mail.mails);
        const linksPerAddress = new Map<string, Set<string>>();
        for (const m of mail.mails) {
          const links = linksPerAddress.get(m.to[0]!) ?? new Set<string>();
          links.add(tokenOf(m.link));
          linksPerAddress.set(m.to[0]!, links);
        }
        const differingCopies = [...linksPerAddress].filter(([, links]) => links.size > 1).map(([a]) => a);
        // ...and joins, as the sign-up page does: every repeated address and a sample of the others.
        const sample = [
          ...repeated.map((r) => r.email),
          ...rows.filter((_, i) => i % 200 === 7).map((r) => r.email),
        ];
        const joins = await Promise.all(
          [...new Set(sample)].map(async (address) => {
            const copy = mail.mails.find((m) => m.to[0] === address)!;
            const joined = await joinWith(h, copy);
            return {
              address,
              status: joined.status,
              ...(joined.status === 201 ? {} : { code: joined.body.code }),
            };
          }),
        );
        const refusedJoins = joins.filter((j) => j.status !== 201);

        printFigures('bulk invite, worker SIGKILLed twice', {
          rows: ROWS,
          kills: mailsAtKill.length,
          'e-mails at each kill': mailsAtKill.join(' / '),
          'in flight at each kill': inFlightAtKill.join(' / '),
          'in-flight bound (distinct rows)': killedInFlight.size,
          duplicates,
          missing: missing.length,
          'links checked (join check)': mail.mails.length,
          'joins through POST /user/register': joins.length,
          'batch done by the worker': `${batch.status} (${batch.processed} sent, ${batch.failed} failed)`,
          'time (s)': ((Date.now() - started) / 1000).toFixed(1),
        });

        expect(missing).toEqual([]);
        expect(repeatedNotInFlight).toEqual([]);
        expect(duplicates).toBeLessThanOrEqual(killedInFlight.size);
        expect(notOpening).toEqual([]);
        expect(differingCopies).toEqual([]);
        expect(refusedJoins).toEqual([]);
        expect(batch).toMatchObject({ status: 'done', processed: ROWS, failed: 0, total: ROWS });
      } finally {
        await worker.kill('SIGTERM');
      }
    },
    4 * LIVENESS_MS,
  );

  it('finishes a batch whose queued jobs were lost (Redis emptied) when the worker starts', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({
      name: `Lost ${i}`,
      email: `lost${i}@example.test`,
    }));
    const res = await bulkInvite(rows);
    expect(res.status).toBe(202);
    const { batchId } = BulkInviteStarted.parse(res.body);
    // No worker was running: the dispatch job waits in Redis. Lose it, as a Redis without persistence would.
    await deleteKeys(h.redis, `${h.config.REDIS_PREFIX}:bulk-invite:*`);
    const before = mail.mails.length;
    const worker = await startWorkerProcess(env);
    try {
      await batchDone(h, batchId, 60_000, 500);
      const counts = mail.countsByAddress();
      expect(rows.filter((r) => counts.get(r.email) !== 1)).toEqual([]);
      expect(mail.mails.length - before).toBe(rows.length);
    } finally {
      await worker.kill('SIGTERM');
    }
  });
});
