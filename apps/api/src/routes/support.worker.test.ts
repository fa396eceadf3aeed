import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@helix/server';
import { LocalStorage } from '@helix/server/storage/local-storage';
import { supportJobId } from '@helix/server/support/create-support-request.command';
import { sendSupportRequestMails, type SupportMailDeps } from '@helix/server/support/send-support-request';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan, seedRoles } from '@helix/server/testing/factories';
import { createWorkerRuntime, type WorkerRuntime } from '@helix/worker/worker-runtime';
import { requeueUnsentSupportRequests } from '@helix/worker/support-runtime';
import { createHarness, type Harness } from '../../test/harness.ts';
import { startMailSink } from '../../test/mail-sink.ts';
import { bearer, customer, type Caller } from '../../test/models.ts';

/**
 * The send-support-request job against a real SMTP server that is down, then up: the request is
 * stored at once, the job retries (its delayed retry is promoted instead of waiting out the
 * backoff), nothing is lost and nothing is sent twice.
 */
const SUPPORT_EMAIL = 'help-desk@helix.test';
const logger = createLogger('silent', 'support-worker-test');

let h: Harness;
let dir: string;
let port: number;
let sink: Awaited<ReturnType<typeof startMailSink>> | undefined;
let worker: WorkerRuntime;
let deps: SupportMailDeps;
let owner: Caller;

beforeAll(async () => {
  h = await createHarness({ SUPPORT_EMAIL });
  await seedRoles(h.db);
  dir = await mkdtemp(path.join(tmpdir(), 'helix-support-'));
  // A port where no mail server listens yet (one is started there later).
  const probe = await startMailSink();
  port = Number(new URL(probe.url).port);
  await probe.stop();
  // The worker's e-mail family in this process, sending to that port.
  worker = createWorkerRuntime(
    { ...h.config, SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Helix <no-reply@helix.test>' },
    logger,
    { db: h.db, storage: new LocalStorage(dir) },
  );
  await worker.start({ families: ['email'] });
  deps = worker.deps.support;
  const plan = await createPlan(h.db, {
    fasttrackCustomerSupport: true,
    permissions: CUSTOMER_PLAN_PERMISSIONS,
  });
  owner = await customer(h, { plan });
});
afterAll(async () => {
  await worker?.stop();
  await sink?.stop();
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

const jobOf = async (requestId: number) =>
  (await h.deps.queue.queueOf('email').getJob(supportJobId(requestId)))!;

/** Waits until the job's attempt failed and its retry waits out the backoff (promote() runs it now). */
async function waitRetrying(requestId: number, attempts: number) {
  await vi.waitFor(
    async () => {
      const job = await jobOf(requestId);
      expect(await job.getState()).toBe('delayed');
      expect(job.attemptsMade).toBeGreaterThanOrEqual(attempts);
    },
    { timeout: 15_000, interval: 100 },
  );
}

const rowOf = (id: number) => h.db.supportRequest.findUniqueOrThrow({ where: { id } });

const send = (subject: string) =>
  request(h.app)
    .post(`${owner.base}/support`)
    .set(bearer(owner.token))
    .send({ subject, message: 'The mail server may be down.' });

describe('send-support-request', () => {
  it('keeps the request while the mail server is down and sends it once when it is back', async () => {
    const res = await send('While SMTP is down');
    expect(res.status).toBe(201);
    const id = res.body.request.id as number;
    expect(res.body.request.priority).toBe(true);

    await waitRetrying(id, 1);
    const waiting = await rowOf(id);
    expect(waiting.supportMailSentAt).toBeNull();
    expect(waiting.confirmationMailSentAt).toBeNull();

    sink = await startMailSink({ port });
    await (await jobOf(id)).promote();
    const mails = await sink.waitFor(2);
    await vi.waitFor(async () => expect(await (await jobOf(id)).getState()).toBe('completed'), {
      timeout: 60_000,
      interval: 50,
    });
    expect(mails.map((m) => m.to[0]).sort()).toEqual([SUPPORT_EMAIL, owner.user.email].sort());
    expect(mails.find((m) => m.to[0] === SUPPORT_EMAIL)!.raw).toContain('[Priority]');

    // Another run (the start-up sweep, a duplicate job) sends nothing more.
    expect(await sendSupportRequestMails(deps, id)).toEqual({
      support: 'already-sent',
      confirmation: 'already-sent',
    });
    expect(await requeueUnsentSupportRequests(h.db, h.deps.queue, logger)).toBe(0);
    expect(sink.mails).toHaveLength(2);
  });

  it('after a partial success (the confirmation deferred) sends only the confirmation on retry', async () => {
    sink!.refuseTemporarily(new RegExp(owner.user.email.replace(/[.]/g, '\\.')));
    const before = sink!.mails.length;
    const res = await send('Partial');
    const id = res.body.request.id as number;

    await waitRetrying(id, 1);
    const half = await rowOf(id);
    expect(half.supportMailSentAt).not.toBeNull();
    expect(half.confirmationMailSentAt).toBeNull();
    expect(sink!.mails.slice(before).map((m) => m.to[0])).toEqual([SUPPORT_EMAIL]);

    sink!.refuseTemporarily(null);
    await (await jobOf(id)).promote();
    await sink!.waitFor(before + 2);
    await vi.waitFor(async () => expect((await rowOf(id)).confirmationMailSentAt).not.toBeNull(), {
      timeout: 60_000,
      interval: 50,
    });
    expect(sink!.mails.slice(before).map((m) => m.to[0])).toEqual([SUPPORT_EMAIL, owner.user.email]);
  });

  it('queues again at start a request stored while the queue was unreachable', async () => {
    const row = await h.db.supportRequest.create({
      data: {
        tenantId: owner.tenant.id,
        userId: owner.user.id,
        subject: 'Stored, never queued',
        message: 'Redis was down',
        targetHours: 16,
      },
    });
    const before = sink!.mails.length;
    expect(await requeueUnsentSupportRequests(h.db, h.deps.queue, logger)).toBe(1);
    await sink!.waitFor(before + 2);
    await vi.waitFor(async () => expect((await rowOf(row.id)).confirmationMailSentAt).not.toBeNull(), {
      timeout: 60_000,
      interval: 50,
    });
    expect(sink!.mails.slice(before).some((m) => m.raw.includes('Stored, never queued'))).toBe(true);
  });
});
