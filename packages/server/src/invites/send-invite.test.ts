import { randomBytes } from 'node:crypto';
import { Worker } from 'bullmq';
import type { Transporter } from 'nodemailer';
import { JOBS } from '@helix/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropDatabase } from '@helix/server/testing/test-db';
import type { Db } from '../db.ts';
import { createTestDb } from '../testing/test-db.ts';
import { openInvite } from '../accounts/join.command.ts';
import { createTenant, createUser, seedRoles } from '../testing/factories.ts';
import type { InlineLogo } from '../mail/mail-logo.ts';
import { createInvitedUsers } from './invited-users.ts';
import { JobQueue } from '../queue/job-queue.ts';
import { createRedis } from '../redis.ts';
import { inviteJobId, requeueOrphanRows } from './invite-jobs.ts';
import {
  InviteSendLeased,
  markInviteFailed,
  markInviteSent,
  sendInvite,
  type SendInviteDeps,
} from './send-invite.ts';
import { INVITE_ROWS_PER_CLAIM, sendInviteRows } from './send-invite-rows.ts';
import { inviteSentMarker } from './invite-sent-marker.ts';

/**
 * sendInvite against a real PostgreSQL with a recording transport: the link every attempt mails, the
 * send lease, and the batch the worker marks done.
 */
let database: { name: string; url: string };
let db: Db;
let tenantId: number;
let ownerId: number;

beforeAll(async () => {
  database = await createTestDatabase('helix_send_invite');
  db = createTestDb(database.url);
  await seedRoles(db);
  const tenant = await createTenant(db);
  const owner = await createUser(db, { tenant });
  tenantId = tenant.id;
  ownerId = owner.id;
});
afterAll(async () => {
  await db?.$disconnect();
  if (database) await dropDatabase(database.name);
});

let n = 0;
async function invites(count: number, batch = false) {
  n += 1;
  return db.$transaction(async (tx) => {
    const batchId = batch
      ? (
          await tx.bulkInviteBatch.create({
            data: { tenantId, createdById: ownerId, status: 'processing', rows: [], total: count },
          })
        ).id
      : undefined;
    const rows = Array.from({ length: count }, (_, i) => ({
      name: `R ${i}`,
      email: `r${n}-${i}@example.test`,
    }));
    const created = await createInvitedUsers(tx, {
      tenantId,
      invitedById: ownerId,
      rows,
      expiresAt: new Date(Date.now() + 3600_000),
      batchId,
    });
    return { batchId, ids: created.map((c) => c.inviteId) };
  });
}

/** A transport that records each message; `behave` may throw (a failed send) or hold it. */
function recorder(behave: (count: number) => Promise<void> | void = () => undefined) {
  const links: string[] = [];
  const transport = {
    async sendMail(mail: { text?: string }) {
      links.push(/https?:\/\/\S+/.exec(mail.text ?? '')![0]);
      await behave(links.length);
      return {};
    },
  } as unknown as Transporter;
  return { links, transport };
}

/** The logos the worker would make (apps/worker/src/mail/inline-logos.ts): here, the logo URLs asked for. */
const askedLogos: string[] = [];
const LOGO: InlineLogo = { cid: 'logo.test@helix', png: Buffer.from('png bytes'), width: 120, height: 40 };

const depsWith = (transport: Transporter, leaseMs?: number): SendInviteDeps => ({
  db,
  transport,
  mailFrom: 'Helix <no-reply@helix.test>',
  publicUrl: 'http://portal.test',
  signingSecret: 'a-test-signing-secret-of-32-characters!',
  logos: { inline: (url) => (askedLogos.push(url), Promise.resolve(LOGO)) },
  leaseMs,
});

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('sendInvite', () => {
  it('mails the same link on every attempt, and that link opens the invitation', async () => {
    const { ids } = await invites(1);
    // First attempt: the SMTP conversation fails after the message left (as a crash would look).
    const failing = recorder(() => {
      throw Object.assign(new Error('connection lost'), { code: 'ECONNRESET' });
    });
    await expect(sendInvite(depsWith(failing.transport), ids[0]!)).rejects.toThrow('connection lost');
    const ok = recorder();
    expect(await sendInvite(depsWith(ok.transport), ids[0]!)).toBe('sent');
    expect(ok.links).toEqual(failing.links);
    const opened = await openInvite(db, tokenOf(ok.links[0]!));
    expect(opened?.id).toBe(ids[0]);
    // Sent: another attempt sends nothing.
    expect(await sendInvite(depsWith(ok.transport), ids[0]!)).toBe('skipped');
    expect(ok.links).toHaveLength(1);
  });

  it('leases the send: a second attempt waits while the first is in flight, and takes over after the lease', async () => {
    const { ids } = await invites(1);
    let release = () => undefined as void;
    const held = recorder(() => new Promise<void>((resolve) => (release = resolve)));
    const first = sendInvite(depsWith(held.transport, 60_000), ids[0]!);
    while (held.links.length === 0) await new Promise((r) => setTimeout(r, 10));

    const second = recorder();
    const leased = await sendInvite(depsWith(second.transport), ids[0]!).catch((e: unknown) => e);
    expect(leased).toBeInstanceOf(InviteSendLeased);
    expect((leased as InviteSendLeased).waitMs).toBeGreaterThan(50_000);
    expect(second.links).toEqual([]);
    release();
    expect(await first).toBe('sent');

    // A killed attempt never writes sentAt: once its lease ended, the next one sends the same link.
    const { ids: other } = await invites(1);
    const killed = recorder(() => new Promise<void>(() => undefined));
    void sendInvite(depsWith(killed.transport, 300), other[0]!);
    while (killed.links.length === 0) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 400));
    const next = recorder();
    expect(await sendInvite(depsWith(next.transport), other[0]!)).toBe('sent');
    expect(next.links).toEqual(killed.links);
  });

  it('never skips an open row at its lease end: each attempt either claims it or is told to wait', async () => {
    // Rows whose leases (a killed attempt's) end one after another, 2 ms apart, while attempts run
    // back to back over the ends: an attempt between "not claimable" and "lease over" used to answer
    // 'skipped', and the row was never sent.
    const { ids } = await invites(40);
    await db.$executeRaw`
      UPDATE "Invite" SET "sendingUntil" = (clock_timestamp() AT TIME ZONE 'UTC')
        + (300 + 2 * (id - ${ids[0]!})) * interval '1 millisecond'
      WHERE id = ANY(${ids}::int[])`;
    const outcomes = new Map<number, string[]>();
    const sender = recorder();
    // Rounds of attempts across every lease's end until each row is sent: on an idle machine each row
    // sees several 'held' first; a loaded one may start late and send at once. No fixed time is asked.
    const pastTheEnds = Date.now() + 800;
    const sentAll = () => ids.every((id) => outcomes.get(id)?.includes('sent'));
    while (Date.now() < pastTheEnds || (!sentAll() && Date.now() < pastTheEnds + 20_000)) {
      await Promise.all(
        ids.map(async (id) => {
          const outcome = await sendInvite(depsWith(sender.transport), id).catch((e: unknown) =>
            e instanceof InviteSendLeased ? 'held' : Promise.reject(e),
          );
          outcomes.set(id, [...(outcomes.get(id) ?? []), outcome]);
        }),
      );
    }
    for (const id of ids) {
      const seen = outcomes.get(id)!;
      // Held until the lease ended, then sent once, then settled: never skipped before it was sent.
      const firstSent = seen.indexOf('sent');
      expect(firstSent, `invite ${id}: ${seen.join(' ')}`).toBeGreaterThanOrEqual(0);
      expect(seen.slice(0, firstSent).every((o) => o === 'held')).toBe(true);
      expect(seen.slice(firstSent + 1).every((o) => o === 'skipped')).toBe(true);
    }
    expect(sender.links).toHaveLength(ids.length);
  });

  it('marks a batch done with its last settled row, counting each row once', async () => {
    const { batchId, ids } = await invites(3, true);
    const ok = recorder();
    await sendInvite(depsWith(ok.transport), ids[0]!);
    await markInviteFailed(db, ids[1]!, 'refused');
    expect(await db.bulkInviteBatch.findUnique({ where: { id: batchId! } })).toMatchObject({
      status: 'processing',
      processed: 1,
      failed: 1,
      finishedAt: null,
    });
    await sendInvite(depsWith(ok.transport), ids[2]!);
    // Settling again (a retry, a duplicate job) counts nothing.
    await sendInvite(depsWith(ok.transport), ids[2]!);
    await markInviteFailed(db, ids[0]!, 'late');
    const done = await db.bulkInviteBatch.findUnique({ where: { id: batchId! } });
    expect(done).toMatchObject({ status: 'done', processed: 2, failed: 1 });
    expect(done?.finishedAt).toBeInstanceOf(Date);
  });
});

/** The jobs a rows job hands over (JobQueue.enqueueMany's calls), by name and jobId. */
function handOvers() {
  const added: Array<{ name: string; jobId: string; inviteId: number }> = [];
  const queue = {
    enqueueMany: (job: { name: string }, items: Array<{ jobId: string; payload: { inviteId: number } }>) => {
      for (const item of items)
        added.push({ name: job.name, jobId: item.jobId, inviteId: item.payload.inviteId });
      return Promise.resolve();
    },
  } as unknown as JobQueue;
  return { added, queue };
}

const rowState = async (ids: number[]) =>
  (
    await db.invite.findMany({
      where: { id: { in: ids } },
      select: { id: true, sentAt: true, failedAt: true, failReason: true, sendingUntil: true },
      orderBy: { id: 'asc' },
    })
  ).map((r) => ({
    sent: r.sentAt !== null,
    failed: r.failReason,
    leased: r.sendingUntil !== null,
  }));

describe('sendInviteRows (a run of a bulk invite’s rows in one job)', () => {
  it('sends every open row once, each marked sent, and the batch counts them', async () => {
    const { batchId, ids } = await invites(5, true);
    const ok = recorder();
    const { added, queue } = handOvers();
    expect(await sendInviteRows({ ...depsWith(ok.transport), queue }, batchId!, ids)).toEqual({
      sent: 5,
      skipped: 0,
      failed: 0,
      handedOver: 0,
    });
    expect(new Set(ok.links).size).toBe(5);
    expect(added).toEqual([]);
    expect(await db.bulkInviteBatch.findUnique({ where: { id: batchId! } })).toMatchObject({
      status: 'done',
      processed: 5,
    });
    // The same run again (a second dispatch, a retry) sends nothing.
    expect(await sendInviteRows({ ...depsWith(ok.transport), queue }, batchId!, ids)).toMatchObject({
      sent: 0,
      handedOver: 0,
    });
    expect(ok.links).toHaveLength(5);
  });

  it('with the worker’s shared sent marker, concurrent jobs write their rows’ markers together, each once', async () => {
    const { batchId, ids } = await invites(24, true);
    const other = await invites(6, true);
    const ok = recorder();
    const { queue } = handOvers();
    const deps = { ...depsWith(ok.transport), queue, markSent: inviteSentMarker(db) };
    // Six jobs at once over two batches, as the worker runs them (and one row in two jobs).
    const runs = [
      ids.slice(0, 8),
      ids.slice(7, 16),
      ids.slice(16),
      other.ids.slice(0, 3),
      other.ids.slice(3),
    ];
    const outcomes = await Promise.all(
      runs.map((run, i) => sendInviteRows(deps, i < 3 ? batchId! : other.batchId!, run)),
    );
    expect(outcomes.reduce((sum, o) => sum + o.sent, 0)).toBe(30);
    expect(new Set(ok.links).size).toBe(30);
    expect((await rowState([...ids, ...other.ids])).every((r) => r.sent && !r.leased)).toBe(true);
    for (const [id, total] of [
      [batchId!, 24],
      [other.batchId!, 6],
    ] as const) {
      const batch = await db.bulkInviteBatch.findUnique({ where: { id } });
      expect(batch).toMatchObject({ status: 'done', processed: total, failed: 0 });
      expect(batch?.finishedAt).toBeInstanceOf(Date);
    }
  });

  it('leaves a row another attempt holds, and after a failure a retry may change, the rest, to row jobs', async () => {
    const { batchId, ids } = await invites(5, true);
    // Row 0 is being sent by another attempt (its lease runs).
    await db.invite.update({ where: { id: ids[0]! }, data: { sendingUntil: new Date(Date.now() + 60_000) } });
    // The SMTP conversation of the second e-mail this job tries fails (connection lost).
    const flaky = recorder((count) => {
      if (count === 2) throw Object.assign(new Error('connection lost'), { code: 'ECONNRESET' });
    });
    const { added, queue } = handOvers();
    const outcome = await sendInviteRows({ ...depsWith(flaky.transport), queue }, batchId!, ids);
    expect(outcome).toEqual({ sent: 1, skipped: 0, failed: 0, handedOver: 4 });
    expect(added).toEqual(
      [ids[0]!, ids[2]!, ids[3]!, ids[4]!].map((id) => ({
        name: 'bulk-invite-row',
        jobId: `invite-${id}`,
        inviteId: id,
      })),
    );
    // Only the other attempt's lease is left: the rows job released its own.
    expect(await rowState(ids)).toEqual([
      { sent: false, failed: null, leased: true },
      { sent: true, failed: null, leased: false },
      { sent: false, failed: null, leased: false },
      { sent: false, failed: null, leased: false },
      { sent: false, failed: null, leased: false },
    ]);
  });

  it('claims a few rows at a time: a job killed mid-send leaves at most those held', async () => {
    const { batchId, ids } = await invites(INVITE_ROWS_PER_CLAIM + 3, true);
    // The first e-mail never finishes, as in a worker killed while sending it.
    const killed = recorder(() => new Promise<void>(() => undefined));
    void sendInviteRows({ ...depsWith(killed.transport), queue: handOvers().queue }, batchId!, ids);
    while (killed.links.length === 0) await new Promise((r) => setTimeout(r, 10));
    expect((await rowState(ids)).map((r) => r.leased)).toEqual([
      ...Array<boolean>(INVITE_ROWS_PER_CLAIM).fill(true),
      false,
      false,
      false,
    ]);
  });

  it('fails a row the SMTP server refuses for good and goes on with the next', async () => {
    const { batchId, ids } = await invites(3, true);
    const refusing = recorder((count) => {
      if (count === 1)
        throw Object.assign(new Error('no such user'), { responseCode: 550, response: '550 no such user' });
    });
    const { added, queue } = handOvers();
    expect(await sendInviteRows({ ...depsWith(refusing.transport), queue }, batchId!, ids)).toEqual({
      sent: 2,
      skipped: 0,
      failed: 1,
      handedOver: 0,
    });
    expect(added).toEqual([]);
    expect((await rowState(ids))[0]).toEqual({ sent: false, failed: '550 no such user', leased: false });
    expect(await db.bulkInviteBatch.findUnique({ where: { id: batchId! } })).toMatchObject({
      status: 'done',
      processed: 2,
      failed: 1,
    });
  });

  it('hands the unsent rows over when the worker is stopping, and once half the lease has passed', async () => {
    const stopping = new AbortController();
    const { batchId, ids } = await invites(4, true);
    const stopsAfterOne = recorder(() => stopping.abort());
    const first = handOvers();
    expect(
      await sendInviteRows({ ...depsWith(stopsAfterOne.transport), queue: first.queue }, batchId!, ids, {
        stopping: stopping.signal,
      }),
    ).toMatchObject({ sent: 1, handedOver: 3 });
    expect(first.added.map((a) => a.inviteId)).toEqual(ids.slice(1));
    expect((await rowState(ids)).map((r) => r.leased)).toEqual([false, false, false, false]);

    // A slow SMTP server: 150 ms an e-mail against a 200 ms lease, so after the first the rest go.
    const slow = recorder(() => new Promise<void>((resolve) => setTimeout(resolve, 150)));
    const second = handOvers();
    expect(
      await sendInviteRows({ ...depsWith(slow.transport, 200), queue: second.queue }, batchId!, ids.slice(1)),
    ).toMatchObject({ sent: 1, handedOver: 2 });
    expect(second.added.map((a) => a.inviteId)).toEqual(ids.slice(2));
  });
});

describe('the invitation e-mail of a branded school', () => {
  it("carries the school's name, stored logo (inline), colour and the link's expiry", async () => {
    await db.branding.upsert({
      where: { tenantId },
      create: { tenantId, brandLogo: 'images/logo-school123.webp', primaryColor: '#0a7d32' },
      update: { brandLogo: 'images/logo-school123.webp', primaryColor: '#0a7d32' },
    });
    const { ids } = await invites(1);
    await db.invite.update({ where: { id: ids[0]! }, data: { expiresAt: new Date('2030-12-10T14:00:00Z') } });
    type Sent = { text?: string; html?: string; attachments?: Array<Record<string, unknown>> };
    const mails: Sent[] = [];
    const transport = {
      sendMail: (mail: Sent) => (mails.push(mail), Promise.resolve({})),
    } as unknown as Transporter;
    expect(await sendInvite(depsWith(transport), ids[0]!)).toBe('sent');
    const tenant = await db.tenant.findUniqueOrThrow({ where: { id: tenantId } });
    const [mail] = mails;
    // The stored logo is asked for by its URL and shown from the message's own PNG part.
    expect(askedLogos).toEqual(['http://portal.test/api/files/images/logo-school123.webp']);
    expect(mail?.html).toContain(`<img src="cid:${LOGO.cid}" alt="${tenant.name}" width="120" height="40"`);
    expect(mail?.html).not.toContain('logo-school123.webp');
    expect(mail?.attachments).toEqual([
      expect.objectContaining({ cid: LOGO.cid, content: LOGO.png, contentType: 'image/png' }),
    ]);
    expect(mail?.html).toContain('background:#0a7d32');
    expect(mail?.text?.split('\n')[0]).toBe(tenant.name);
    expect(mail?.text).toContain('This invitation expires on 10 December 2030 at 14:00 UTC.');
    expect(mail?.text).toContain('http://portal.test/invitation?token=');
  });
});

describe('the recovery of rows no job will run (requeueOrphanRows)', () => {
  it('queues a row job again for an open row whose jobs finished, and none for rows a live job covers', async () => {
    const connection = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
      maxRetriesPerRequest: null,
    });
    const queue = new JobQueue(connection, `helixtest-${randomBytes(4).toString('hex')}`);
    try {
      const { batchId, ids } = await invites(3, true);
      const [lost, covered, sent] = ids as [number, number, number];
      await markInviteSent(db, sent);
      const rows = queue.queueFor(JOBS.bulkInviteRow);
      // The lost row's job finished (kept, so an add with its id collapses); the covered row's waits.
      await rows.add(JOBS.bulkInviteRow.name, { batchId, inviteId: lost }, { jobId: inviteJobId(lost) });
      // Taken and completed as a worker would, without running anything.
      const worker = new Worker(rows.name, null, { connection, prefix: rows.opts.prefix });
      const taken = await worker.getNextJob('token');
      await taken!.moveToCompleted('skipped', 'token', false);
      await worker.close();
      expect(await rows.getJobState(inviteJobId(lost))).toBe('completed');
      await queue.enqueueMany(JOBS.bulkInviteRow, [
        { payload: { batchId: batchId!, inviteId: covered }, jobId: inviteJobId(covered) },
      ]);

      expect(await requeueOrphanRows(db, queue, batchId!)).toBe(1);
      expect(await rows.getJobState(inviteJobId(lost))).toBe('waiting');
      // Now covered: a second pass adds nothing.
      expect(await requeueOrphanRows(db, queue, batchId!)).toBe(0);
    } finally {
      await queue.queueFor(JOBS.bulkInviteRow).obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  });
});
