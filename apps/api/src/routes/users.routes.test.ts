import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { BulkInviteBatchView, BulkInviteStarted } from '@helix/shared/schemas/invite';
import { TenantUserList, UserDetailView } from '@helix/shared/schemas/tenant-user';
import type { Tenant } from '@helix/server/db';
import { createHarness, type Harness } from '../../test/harness.ts';
import { startInviteWorkers } from '../../test/invite-workers.ts';
import { startMailSink } from '../../test/mail-sink.ts';
import { bearer, customer, member, platformAdmin, type Caller } from '../../test/models.ts';
import { createUser, seedRoles, uniqueName } from '@helix/server/testing/factories';

let h: Harness;
let mail: Awaited<ReturnType<typeof startMailSink>>;
let workers: Awaited<ReturnType<typeof startInviteWorkers>>;
let owner: Caller;
let user: Caller;
let other: Caller;
let admin: Caller;

const setSeats = (tenant: Tenant, userLimit: number) =>
  h.db.tenantSubscription.update({ where: { tenantId: tenant.id }, data: { userLimit } });

beforeAll(async () => {
  mail = await startMailSink({ refuse: /^bounce/ });
  h = await createHarness({ PUBLIC_URL: 'http://portal.test' });
  await seedRoles(h.db);
  workers = await startInviteWorkers(h, { smtpUrl: mail.url });
  owner = await customer(h, { name: 'Acme School' });
  await h.db.user.update({ where: { id: owner.user.id }, data: { isOwner: true, name: 'Olivia Owner' } });
  await setSeats(owner.tenant, 100);
  user = await member(h, owner.tenant, ['User']);
  other = await customer(h);
  admin = await platformAdmin(h);
});
afterAll(async () => {
  await workers?.stop();
  await h?.close();
  await mail?.stop();
});

const post = (caller: Caller | null, path: string, body: unknown, base = caller?.base ?? owner.base) => {
  const req = request(h.app).post(`${base}${path}`);
  return caller ? req.set(bearer(caller.token)).send(body as object) : req.send(body as object);
};
const get = (caller: Caller | null, path: string, base = caller?.base ?? owner.base) => {
  const req = request(h.app).get(`${base}${path}`);
  return caller ? req.set(bearer(caller.token)) : req;
};

const newAddress = (base = 'inv') => `${uniqueName(base)}@example.test`;

/** The invitation e-mail sent to `address` (waits for it). */
async function mailTo(address: string, nth = 1) {
  const deadline = Date.now() + 90_000; // a liveness bound, not a speed check
  for (;;) {
    const found = mail.mails.filter((m) => m.to.includes(address));
    if (found.length >= nth) return found[nth - 1]!;
    if (Date.now() > deadline) throw new Error(`no e-mail #${nth} to ${address}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const tokenOf = (link: string | null) => new URL(link!).searchParams.get('token')!;

const join = (address: string, token: string) =>
  request(h.app)
    .post('/api/user/join')
    .send({
      name: 'Joined Colleague',
      user_name: uniqueName('joined'),
      email: address,
      password: 'a good password',
      emailstatus: false,
      token,
    });

describe('GET /user/all (users of a tenant)', () => {
  it('answers the owner the tenant users with the seat count, nothing of other tenants', async () => {
    const res = await get(owner, '/user/all');
    expect(res.status).toBe(200);
    const list = TenantUserList.parse(res.body);
    const ids = list.users.map((u) => u.id);
    expect(ids).toContain(owner.user.id);
    expect(ids).toContain(user.user.id);
    expect(ids).not.toContain(other.user.id);
    expect(list.userLimit).toBe(100);
    expect(list.totalUsers).toBe(list.users.length);
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|\$argon2/);
  });

  it('carries what the users export needs: roles, status (invited, active), created and last login', async () => {
    const invited = await createUser(h.db, {
      tenant: owner.tenant,
      name: 'Ivy Invited',
      password: null,
      isOwner: false,
      roles: ['User'],
    });
    // The member logged in twice: the later login is the last one.
    const later = new Date(Date.now() + 60_000);
    await h.db.session.create({
      data: {
        userId: user.user.id,
        tokenHash: uniqueName('hash'),
        createdAt: later,
        lastSeenAt: later,
        expiresAt: new Date(later.getTime() + 3_600_000),
      },
    });
    const list = TenantUserList.parse((await get(owner, '/user/all')).body);
    const byId = new Map(list.users.map((u) => [u.id, u]));
    expect(byId.get(invited.id)).toMatchObject({
      name: 'Ivy Invited',
      email: invited.email,
      roles: [{ name: 'User' }],
      status: 'invited',
      lastLoginAt: null,
      createdAt: invited.createdAt.toISOString(),
    });
    expect(byId.get(user.user.id)).toMatchObject({ status: 'active', lastLoginAt: later.toISOString() });
    const ownerRow = byId.get(owner.user.id)!;
    expect(ownerRow.status).toBe('active');
    const ownerLogin = await h.db.session.findFirst({
      where: { userId: owner.user.id },
      orderBy: { createdAt: 'desc' },
    });
    expect(ownerRow.lastLoginAt).toBe(ownerLogin!.createdAt.toISOString());
    await h.db.user.update({ where: { id: invited.id }, data: { deletedAt: new Date() } });
  });

  it('refuses a user without User.listing.view (403), another tenant (404) and no session (401)', async () => {
    expect((await get(user, '/user/all')).status).toBe(403);
    expect((await get(other, '/user/all', owner.base)).status).toBe(404);
    expect((await get(null, '/user/all')).status).toBe(401);
  });
});

describe('POST /user/detail', () => {
  it('shows a user of the tenant with roles and model views to the owner', async () => {
    const model = await h.db.model.create({ data: { name: 'Heart', urlModelName: uniqueName('heart') } });
    await h.db.modelViewDaily.create({
      data: {
        modelId: model.id,
        tenantId: owner.tenant.id,
        day: new Date('2026-11-01'),
        source: 'portal',
        viewerKey: `u:${user.user.id}`,
        userId: user.user.id,
        count: 7,
      },
    });
    const res = await post(owner, '/user/detail', { id: user.user.id });
    expect(res.status).toBe(200);
    const detail = UserDetailView.parse(res.body);
    expect(detail.roles.map((r) => r.name)).toEqual(['User']);
    expect(detail.models).toEqual([{ modelId: model.id, name: 'Heart', thumbnail: null, viewCount: 7 }]);
    expect(detail.totalModelViews).toBe(7);
    expect(detail.abilities.delete).toBe(true);
    const self = UserDetailView.parse((await post(owner, '/user/detail', { id: owner.user.id })).body);
    expect(self.abilities.delete).toBe(false);
  });

  it('lets the platform admin see any user, without delete', async () => {
    const res = await post(admin, '/user/detail', { id: user.user.id });
    expect(res.status).toBe(200);
    expect(UserDetailView.parse(res.body).abilities.delete).toBe(false);
  });

  it('answers another tenant the same 404 as a missing user; 403 without the permission; 401', async () => {
    const otherTenant = await post(other, '/user/detail', { id: user.user.id });
    const missing = await post(other, '/user/detail', { id: 999_999 });
    expect(otherTenant.status).toBe(404);
    expect(otherTenant.body).toEqual(missing.body);
    expect((await post(user, '/user/detail', { id: owner.user.id })).status).toBe(403);
    expect((await post(null, '/user/detail', { id: owner.user.id })).status).toBe(401);
    expect((await post(owner, '/user/detail', { id: 'x' })).status).toBe(400);
  });
});

describe('POST /user/invite, the e-mail and joining', () => {
  it('invites a colleague: the e-mail arrives with a link that joins this tenant once', async () => {
    const address = newAddress('colleague');
    const res = await post(owner, '/user/invite', { name: 'New Colleague', email: address.toUpperCase() });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(MSG.resetEmailSent(address));
    const invited = await h.db.user.findUniqueOrThrow({
      where: { email: address },
      include: { roles: true },
    });
    expect(invited).toMatchObject({ tenantId: owner.tenant.id, passwordHash: null, isOwner: false });
    const list = TenantUserList.parse((await get(owner, '/user/all')).body);
    expect(list.users.find((u) => u.email === address)?.isPassword).toBe(false);

    const message = await mailTo(address);
    expect(message.raw).toContain('Acme School');
    expect(message.link).toMatch(/^http:\/\/portal\.test\/invitation\?token=/);
    const token = tokenOf(message.link);
    const joined = await join(address, token);
    expect(joined.status).toBe(201);
    expect(joined.body.tenant).toBe(owner.tenant.domainPrefix);
    // Single use.
    const again = await join(address, token);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(MSG.inviteInvalid);
    // Exactly one e-mail for the invitation.
    await new Promise((r) => setTimeout(r, 300));
    expect(mail.countsByAddress().get(address)).toBe(1);
  });

  it('an expired invitation does not join', async () => {
    const address = newAddress('late');
    await post(owner, '/user/invite', { name: 'Late', email: address }).expect(201);
    const token = tokenOf((await mailTo(address)).link);
    await h.db.invite.updateMany({ where: { user: { email: address } }, data: { expiresAt: new Date(0) } });
    const res = await join(address, token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MSG.inviteInvalid);
  });

  it('validates with the spec messages and refuses an address that is already a user here', async () => {
    const empty = await post(owner, '/user/invite', {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toMatchObject({
      name: MSG.inviteNameRequired,
      email: MSG.inviteEmailRequired,
    });
    const bad = await post(owner, '/user/invite', { name: 'X', email: 'not-an-email' });
    expect(bad.body.errors).toMatchObject({ email: MSG.emailInvalid });
    // Another tenant's address is answered like a new one (invite-privacy.test.ts).
    const taken = await post(owner, '/user/invite', { name: 'X', email: user.user.email });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toMatchObject({ email: MSG.emailTaken });
  });

  it('stops at the seat limit: owner plus limit - 1 invited users', async () => {
    const small = await customer(h);
    await setSeats(small.tenant, 2);
    await post(small, '/user/invite', { name: 'One', email: newAddress() }).expect(201);
    const full = await post(small, '/user/invite', { name: 'Two', email: newAddress() });
    expect(full.status).toBe(409);
    expect(full.body.message).toBe(MSG.usersLimitExceeds);
  });

  it('is refused to a user without User.invite, the platform admin and no session', async () => {
    const body = { name: 'X', email: newAddress() };
    expect((await post(user, '/user/invite', body)).status).toBe(403);
    expect((await post(admin, '/user/invite', body)).status).toBe(403);
    expect((await post(null, '/user/invite', body)).status).toBe(401);
    expect((await post(other, '/user/invite', body, owner.base)).status).toBe(404);
  });
});

describe('POST /user/resend-invite', () => {
  it('sends a fresh link and retires the old one', async () => {
    const address = newAddress('resend');
    await post(owner, '/user/invite', { name: 'Resend Me', email: address }).expect(201);
    const first = tokenOf((await mailTo(address, 1)).link);
    const invited = await h.db.user.findUniqueOrThrow({ where: { email: address } });
    const res = await post(owner, '/user/resend-invite', {
      id: invited.id,
      name: 'Resend Me',
      email: address,
      subject: 'Invitation',
    });
    expect(res.status).toBe(200);
    const second = tokenOf((await mailTo(address, 2)).link);
    expect(second).not.toBe(first);
    expect((await join(address, first)).status).toBe(400);
    expect((await join(address, second)).status).toBe(201);
    // Now they have a password: nothing to resend.
    expect((await post(owner, '/user/resend-invite', { id: invited.id })).status).toBe(409);
  });

  it('answers 404 for another tenant’s user, 403 without User.invite, 401 without a session', async () => {
    expect((await post(other, '/user/resend-invite', { id: user.user.id })).status).toBe(404);
    expect((await post(user, '/user/resend-invite', { id: user.user.id })).status).toBe(403);
    expect((await post(null, '/user/resend-invite', { id: user.user.id })).status).toBe(401);
  });
});

describe('POST /user/delete', () => {
  it('deletes a user: their sessions end at once, their links are revoked, the address is free', async () => {
    const victim = await member(h, owner.tenant, ['User']);
    const model = await h.db.model.create({ data: { name: 'Cell', urlModelName: uniqueName('cell') } });
    const link = await h.db.embedToken.create({
      data: {
        tokenHash: uniqueName('hash'),
        modelId: model.id,
        tenantId: owner.tenant.id,
        createdById: victim.user.id,
        settings: [],
      },
    });
    expect((await get(victim, '/user/info')).status).toBe(200);

    const res = await post(owner, '/user/delete', { id: victim.user.id, email: victim.user.email });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(MSG.userDeleted);
    expect((await get(victim, '/user/info')).status).toBe(401);
    const session = await h.db.session.findFirstOrThrow({ where: { userId: victim.user.id } });
    expect(session.endedReason).toBe('user_deleted');
    expect((await h.db.embedToken.findUniqueOrThrow({ where: { id: link.id } })).revokedAt).not.toBeNull();
    const list = TenantUserList.parse((await get(owner, '/user/all')).body);
    expect(list.users.map((u) => u.id)).not.toContain(victim.user.id);
    // The address can be invited again.
    await post(owner, '/user/invite', { name: 'Back', email: victim.user.email }).expect(201);
    // A second delete finds nothing.
    expect((await post(owner, '/user/delete', { id: victim.user.id })).status).toBe(404);
  });

  it('never deletes the owner, and not from the admin screen', async () => {
    const self = await post(owner, '/user/delete', { id: owner.user.id });
    expect(self.status).toBe(403);
    expect(self.body.message).toBe(MSG.ownerCannotBeDeleted);
    const byAdmin = await post(admin, '/user/delete', { id: user.user.id });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.message).toBe(MSG.adminCannotDeleteUsers);
  });

  it('answers 404 for another tenant, 403 without User.delete, 401 without a session', async () => {
    expect((await post(other, '/user/delete', { id: user.user.id })).status).toBe(404);
    expect((await post(user, '/user/delete', { id: owner.user.id })).status).toBe(403);
    expect((await post(null, '/user/delete', { id: user.user.id })).status).toBe(401);
    expect(await h.db.user.count({ where: { id: user.user.id, deletedAt: null } })).toBe(1);
  });
});

describe('POST /user/bulk-invite and GET /user/bulk-invite/:id', () => {
  async function waitDone(caller: Caller, batchId: number) {
    const deadline = Date.now() + 90_000; // a liveness bound, not a speed check
    for (;;) {
      const res = await get(caller, `/user/bulk-invite/${batchId}`);
      expect(res.status).toBe(200);
      const view = BulkInviteBatchView.parse(res.body);
      if (view.status === 'done') return view;
      if (Date.now() > deadline) throw new Error(`batch ${batchId} not done: ${JSON.stringify(view)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('checks every row again, drops duplicates, keeps formulas as text, sends one e-mail per row', async () => {
    const team = await customer(h, { name: 'Bulk School' });
    await setSeats(team.tenant, 400);
    // 300 rows with long notes: a body larger than the 100 kB every other route takes.
    const rows = Array.from({ length: 300 }, (_, i) => ({
      name: i === 0 ? '=HYPERLINK("http://evil.test","x")' : `Person ${i}`,
      email: `bulk${i}-${team.tenant.id}@example.test`,
      note: 'x'.repeat(400),
    }));
    rows.push({ ...rows[3]!, email: rows[3]!.email.toUpperCase() }); // a duplicate, another case
    const res = await post(team, '/user/bulk-invite', { users: rows });
    expect(res.status).toBe(202);
    const started = BulkInviteStarted.parse(res.body);
    expect(JSON.stringify({ users: rows }).length).toBeGreaterThan(100 * 1024);
    expect(started).toMatchObject({ total: 300, duplicates: 1 });
    const formula = await h.db.user.findUniqueOrThrow({ where: { email: rows[0]!.email } });
    expect(formula.name).toBe('=HYPERLINK("http://evil.test","x")');

    const view = await waitDone(team, started.batchId);
    expect(view).toMatchObject({ total: 300, sent: 300, failed: 0, failures: [] });
    const counts = mail.countsByAddress();
    for (const row of rows.slice(0, 300)) expect(counts.get(row.email)).toBe(1);

    // Other tenants cannot follow it; a user without User.invite cannot either.
    expect((await get(other, `/user/bulk-invite/${started.batchId}`)).status).toBe(404);
    expect((await get(user, `/user/bulk-invite/${started.batchId}`)).status).toBe(403);
  });

  it('lists the rows the SMTP server refused, with the reason, and still finishes', async () => {
    const team = await customer(h);
    await setSeats(team.tenant, 10);
    const rows = [
      { name: 'Good', email: newAddress('good') },
      { name: 'Bounce', email: newAddress('bounce') },
    ];
    const res = await post(team, '/user/bulk-invite', { users: rows });
    expect(res.status).toBe(202);
    const view = await waitDone(team, BulkInviteStarted.parse(res.body).batchId);
    expect(view).toMatchObject({ total: 2, sent: 1, failed: 1 });
    expect(view.failures).toEqual([
      { name: 'Bounce', email: rows[1]!.email, reason: expect.stringContaining('550') },
    ]);
  });

  it('answers the existing users to remove before retrying, and sends nothing', async () => {
    const before = await h.db.bulkInviteBatch.count();
    const res = await post(owner, '/user/bulk-invite', {
      users: [
        { name: 'Fresh', email: newAddress() },
        { name: 'Known', email: user.user.email.toUpperCase() },
      ],
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(MSG.bulkExistingUsers);
    expect(Object.keys(res.body.errors)).toEqual([user.user.email]);
    expect(await h.db.bulkInviteBatch.count()).toBe(before);
  });

  it('refuses rows with problems, naming each row', async () => {
    const res = await post(owner, '/user/bulk-invite', {
      users: [
        { name: '', email: newAddress() },
        { name: 'Bad', email: 'nope' },
        { name: 'Long', email: newAddress(), note: 'n'.repeat(501) },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'users.0': MSG.bulkRowMissingName,
      'users.1': MSG.bulkRowInvalidEmail,
      'users.2': MSG.bulkRowTooLong('Note', 500),
    });
  });

  it('says Users Limit Exceeds when the rows plus the users pass the limit', async () => {
    const small = await customer(h);
    await setSeats(small.tenant, 3);
    const rows = [1, 2, 3].map((i) => ({ name: `P${i}`, email: newAddress() }));
    const res = await post(small, '/user/bulk-invite', { users: rows });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(MSG.usersLimitExceeds);
    expect((await post(small, '/user/bulk-invite', { users: rows.slice(0, 2) })).status).toBe(202);
  });

  it('caps the row count and the body size', async () => {
    const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ name: 'P', email: `r${i}@x.test` }));
    const res = await post(owner, '/user/bulk-invite', { users: tooMany });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(MSG.bulkTooManyRows(10_000));
    const huge = await post(owner, '/user/bulk-invite', {
      users: [{ name: 'P', email: 'p@x.test', note: 'x'.repeat(13 * 1024 * 1024) }],
    });
    expect(huge.status).toBe(413);
    // Only this route takes a large body.
    const elsewhere = await post(owner, '/user/invite', { name: 'x'.repeat(200_000), email: 'a@b.test' });
    expect(elsewhere.status).toBe(413);
  });

  it('is refused to a user, the platform admin, another tenant and no session', async () => {
    const body = { users: [{ name: 'P', email: newAddress() }] };
    expect((await post(user, '/user/bulk-invite', body)).status).toBe(403);
    expect((await post(admin, '/user/bulk-invite', body)).status).toBe(403);
    expect((await post(other, '/user/bulk-invite', body, owner.base)).status).toBe(404);
    expect((await post(null, '/user/bulk-invite', body)).status).toBe(401);
  });
});
