import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS, MSG } from '@helix/shared';
import { BulkInviteBatchView, BulkInviteStarted } from '@helix/shared/schemas/invite';
import { TenantUserList } from '@helix/shared/schemas/tenant-user';
import type { Tenant } from '@helix/server/db';
import { createHarness, type Harness } from '../../test/harness.ts';
import { startInviteWorkers } from '../../test/invite-workers.ts';
import { startMailSink } from '../../test/mail-sink.ts';
import { bearer, customer, member, type Caller } from '../../test/models.ts';
import { seedRoles, uniqueName } from '@helix/server/testing/factories';

/**
 * Issue 18, point 2: no tenant learns about another tenant's users. An owner's invite answers for an
 * address registered at another school equal those for a new address (status and body, ids aside); the
 * address's owner gets one notice e-mail instead of an invitation; the own school's duplicates keep the
 * spec's messages. See docs/invite-privacy.md.
 */
let h: Harness;
let mail: Awaited<ReturnType<typeof startMailSink>>;
let workers: Awaited<ReturnType<typeof startInviteWorkers>>;
let school: Caller;
let colleague: Caller;
let elsewhere: Caller;

const setSeats = (tenant: Tenant, userLimit: number) =>
  h.db.tenantSubscription.update({ where: { tenantId: tenant.id }, data: { userLimit } });

beforeAll(async () => {
  mail = await startMailSink();
  h = await createHarness({ PUBLIC_URL: 'http://portal.test' });
  await seedRoles(h.db);
  workers = await startInviteWorkers(h, { smtpUrl: mail.url });
  school = await customer(h, { name: 'Privacy School' });
  await h.db.user.update({ where: { id: school.user.id }, data: { isOwner: true, name: 'Olivia Owner' } });
  await setSeats(school.tenant, 100);
  colleague = await member(h, school.tenant, ['User']);
  elsewhere = await customer(h, { name: 'Other School' });
});
afterAll(async () => {
  await workers?.stop();
  await h?.close();
  await mail?.stop();
});

const post = (caller: Caller, path: string, body: unknown) =>
  request(h.app)
    .post(`${caller.base}${path}`)
    .set(bearer(caller.token))
    .send(body as object);
const get = (caller: Caller, path: string) =>
  request(h.app).get(`${caller.base}${path}`).set(bearer(caller.token));

const newAddress = (base = 'new') => `${uniqueName(base)}@example.test`;
/** A user of another school: a fresh one per test, so e-mail counts are the test's own. */
const foreignAddress = async () => (await member(h, elsewhere.tenant, ['User'])).user.email;

/** The answer as the inviter sees it, with the address and ids made neutral. */
const seen = (res: request.Response, address: string) => ({
  status: res.status,
  body: JSON.parse(
    JSON.stringify(res.body)
      .replaceAll(address, '<address>')
      .replace(/"batchId":\d+/g, '"batchId":0'),
  ) as unknown,
});

async function mailsTo(address: string, count: number) {
  const deadline = Date.now() + 90_000; // a liveness bound, not a speed check
  for (;;) {
    const found = mail.mails.filter((m) => m.to.includes(address));
    if (found.length >= count) return found;
    if (Date.now() > deadline)
      throw new Error(`expected ${count} e-mails to ${address}, got ${found.length}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
/** Lets a job that should not run have its chance, then counts. */
const settledCount = async (address: string) => {
  await new Promise((r) => setTimeout(r, 400));
  return mail.countsByAddress().get(address) ?? 0;
};

describe('a single invite of an address registered at another school', () => {
  it('is answered like a new address; its owner gets one notice and no invitation', async () => {
    const fresh = newAddress();
    const foreign = await foreignAddress();
    const before = TenantUserList.parse((await get(school, '/user/all')).body);

    const forNew = await post(school, '/user/invite', { name: 'New Person', email: fresh });
    const forForeign = await post(school, '/user/invite', { name: 'Known Elsewhere', email: foreign });
    expect(forNew.status).toBe(201);
    expect(seen(forForeign, foreign)).toEqual(seen(forNew, fresh));
    expect(forForeign.body).toEqual({ message: MSG.resetEmailSent(foreign) });

    // The new address gets its invitation; the foreign one a notice without a link.
    expect((await mailsTo(fresh, 1))[0]!.link).toMatch(/^http:\/\/portal\.test\/invitation\?token=/);
    const [notice] = await mailsTo(foreign, 1);
    expect(notice!.link).toBeNull();
    expect(notice!.raw).toContain('Subject: You were invited to Privacy School on Helix');
    expect(notice!.raw).not.toContain('Other School');
    expect(await settledCount(foreign)).toBe(1);

    // The school sees a pending invite like any other, counted as a seat.
    const after = TenantUserList.parse((await get(school, '/user/all')).body);
    const rowOf = (email: string) => after.users.find((u) => u.email === email);
    expect(rowOf(foreign)).toMatchObject({ name: 'Known Elsewhere', status: 'invited', isPassword: false });
    expect(rowOf(fresh)).toMatchObject({ status: 'invited', isPassword: false });
    expect(after.totalUsers).toBe(before.totalUsers + 2);
    expect(JSON.stringify(after)).not.toContain('.invalid');

    // The other school's account is untouched.
    const account = await h.db.user.findUniqueOrThrow({ where: { email: foreign } });
    expect(account.tenantId).toBe(elsewhere.tenant.id);
  });

  it('a second invite of either from the same school gets the spec message, the same for both', async () => {
    const fresh = newAddress();
    const foreign = await foreignAddress();
    await post(school, '/user/invite', { name: 'A', email: fresh }).expect(201);
    await post(school, '/user/invite', { name: 'B', email: foreign }).expect(201);
    const againNew = await post(school, '/user/invite', { name: 'A', email: fresh });
    const againForeign = await post(school, '/user/invite', { name: 'B', email: foreign.toUpperCase() });
    expect(againNew.status).toBe(409);
    expect(againNew.body.errors).toEqual({ email: MSG.emailTaken });
    expect(seen(againForeign, foreign)).toEqual(seen(againNew, fresh));
  });

  it('the own school’s users keep the spec message', async () => {
    const res = await post(school, '/user/invite', { name: 'X', email: colleague.user.email });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ message: MSG.emailTaken, errors: { email: MSG.emailTaken } });
  });

  it('resend mails the notice again, never an invitation; revoke removes only the school’s invite', async () => {
    const foreign = await foreignAddress();
    await post(school, '/user/invite', { name: 'Resent', email: foreign }).expect(201);
    await mailsTo(foreign, 1);
    const list = TenantUserList.parse((await get(school, '/user/all')).body);
    const row = list.users.find((u) => u.email === foreign)!;

    const resent = await post(school, '/user/resend-invite', { id: row.id });
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual({ message: MSG.resetEmailSent(foreign) });
    const notices = await mailsTo(foreign, 2);
    expect(notices.map((m) => m.link)).toEqual([null, null]);
    expect(await settledCount(foreign)).toBe(2);

    const detail = await post(school, '/user/detail', { id: row.id });
    expect(detail.body.email).toBe(foreign);

    const revoked = await post(school, '/user/delete', { id: row.id, email: foreign });
    expect(revoked.status).toBe(200);
    const account = await h.db.user.findUniqueOrThrow({ where: { email: foreign } });
    expect(account).toMatchObject({ tenantId: elsewhere.tenant.id, deletedAt: null });
    // The address can be invited again, still answered like a new one.
    await post(school, '/user/invite', { name: 'Again', email: foreign }).expect(201);
  });
});

describe('a bulk invite with addresses registered at another school', () => {
  async function waitDone(caller: Caller, batchId: number) {
    const deadline = Date.now() + 90_000; // a liveness bound, not a speed check
    for (;;) {
      const view = BulkInviteBatchView.parse((await get(caller, `/user/bulk-invite/${batchId}`)).body);
      if (view.status === 'done') return view;
      if (Date.now() > deadline) throw new Error(`batch ${batchId} not done`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('starts and finishes like a file of new addresses; notices instead of invitations', async () => {
    const team = await customer(h, { name: 'Bulk Privacy School' });
    await setSeats(team.tenant, 20);
    const foreign = await foreignAddress();
    const fresh = [newAddress('b1'), newAddress('b2'), newAddress('b3')];

    const allNew = await post(team, '/user/bulk-invite', {
      users: [
        { name: 'One', email: fresh[0] },
        { name: 'Two', email: fresh[1] },
      ],
    });
    const withForeign = await post(team, '/user/bulk-invite', {
      users: [
        { name: 'Three', email: fresh[2] },
        { name: 'Four', email: foreign },
      ],
    });
    expect(allNew.status).toBe(202);
    expect(seen(withForeign, foreign)).toEqual(seen(allNew, fresh[0]!));

    const doneNew = await waitDone(team, BulkInviteStarted.parse(allNew.body).batchId);
    const doneForeign = await waitDone(team, BulkInviteStarted.parse(withForeign.body).batchId);
    const neutral = (v: BulkInviteBatchView) => ({ ...v, id: 0, createdAt: '', finishedAt: '' });
    expect(neutral(doneForeign)).toEqual(neutral(doneNew));
    expect(doneForeign).toMatchObject({ total: 2, sent: 2, failed: 0 });

    const [notice] = await mailsTo(foreign, 1);
    expect(notice!.link).toBeNull();
    expect(notice!.raw).toContain('Bulk Privacy School');
    expect(await settledCount(foreign)).toBe(1);
    const list = TenantUserList.parse((await get(team, '/user/all')).body);
    expect(list.users.find((u) => u.email === foreign)).toMatchObject({ name: 'Four', status: 'invited' });
  });

  it('the preview’s existing users are the school’s own only', async () => {
    const foreign = await foreignAddress();
    const res = await post(school, '/user/bulk-invite', {
      users: [
        { name: 'Mine', email: colleague.user.email },
        { name: 'Theirs', email: foreign },
      ],
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(MSG.bulkExistingUsers);
    expect(res.body.errors).toEqual({ [colleague.user.email]: MSG.bulkRowExisting });
    expect(JSON.stringify(res.body)).not.toContain(foreign);
  });
});

describe('forgot password tells no address from another', () => {
  const resetJobs = async (email: string) =>
    (await h.deps.queue.queueOf('email').getJobs(['waiting', 'delayed', 'completed', 'failed', 'active']))
      .filter((j) => j.name === JOBS.passwordResetRequest.name && j.data.email === email)
      .map((j) => j.data as unknown);

  it('answers the same and queues the same one job for a known and an unknown address', async () => {
    const known = colleague.user.email;
    const unknown = newAddress('nobody');
    const forKnown = await request(h.app).post('/api/user/send_password_reset_token').send({ email: known });
    const forUnknown = await request(h.app)
      .post('/api/user/send_password_reset_token')
      .send({ email: unknown });
    expect(forKnown.status).toBe(200);
    expect(seen(forUnknown, unknown)).toEqual(seen(forKnown, known));
    // The lookup is the worker's: the request did the same work for both.
    expect(await resetJobs(known)).toEqual([{ email: known }]);
    expect(await resetJobs(unknown)).toEqual([{ email: unknown }]);
    // Only the account's owner gets an e-mail.
    expect((await mailsTo(known, 1))[0]!.raw).toContain('Subject: Set your Helix password');
    expect(await settledCount(unknown)).toBe(0);
  });
});
