import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditPage, QUEUED_AT_HEADER } from '@helix/shared/schemas/audit';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { IDEMPOTENCY_HEADER } from '@helix/shared/schemas/outbox';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan, seedRoles } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';
import { bearer, customer, member, platformAdmin, type Caller } from '../../test/models.ts';

let h: Harness;
let admin: Caller;
let owner: Caller;
let teacher: Caller;
let otherOwner: Caller;

beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
  admin = await platformAdmin(h);
  const plan = await createPlan(h.db, { userLimit: 100, permissions: CUSTOMER_PLAN_PERMISSIONS });
  owner = await customer(h, { name: 'Audit School', plan });
  await h.db.tenantSubscription.update({ where: { tenantId: owner.tenant.id }, data: { userLimit: 100 } });
  teacher = await member(h, owner.tenant, ['Admin']);
  otherOwner = await customer(h, { name: 'Other School' });
});
afterAll(async () => {
  await h?.close();
});

const get = (caller: Caller, path: string, query: Record<string, string | number> = {}) =>
  request(h.app).get(`${caller.base}${path}`).query(query).set(bearer(caller.token));
const post = (caller: Caller, path: string, body: object, headers: Record<string, string> = {}) =>
  request(h.app).post(`${caller.base}${path}`).set(bearer(caller.token)).set(headers).send(body);

const audit = async (caller: Caller, query: Record<string, string | number> = {}) => {
  const res = await get(caller, '/audit', query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return AuditPage.parse(res.body);
};

let n = 0;
const address = () => `audit-${Date.now()}-${(n += 1)}@example.test`;

describe('what is recorded', () => {
  it("an owner's invite: who, when, what", async () => {
    const before = new Date();
    const email = address();
    await post(owner, '/user/invite', { name: 'New Teacher', email }).expect(201);
    const page = await audit(owner, { action: 'user.invite' });
    const event = page.events.find((e) => e.target.id === email);
    expect(event).toMatchObject({
      tenant: { id: owner.tenant.id, name: 'Audit School' },
      actor: { id: owner.user.id, name: owner.user.name, email: owner.user.email },
      action: 'user.invite',
      target: { type: 'invite', id: email },
      changes: { request: { name: 'New Teacher', email } },
      offline: false,
      queuedAt: null,
    });
    expect(new Date(event!.appliedAt).getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect(event!.requestId).toBeTruthy();
  });

  it("a platform admin's role change, with the roles before and after", async () => {
    const roles = await h.db.role.findMany({ where: { name: { in: ['Admin', 'User'] } } });
    const userRole = roles.find((r) => r.name === 'User')!;
    await post(admin, '/user/assignRoles', { id: teacher.user.id, roles: [userRole.id] }).expect(200);
    const page = await audit(admin, { action: 'role.assign', tenant: admin.tenant.id });
    const event = page.events.find((e) => e.target.id === String(teacher.user.id));
    expect(event).toMatchObject({
      actor: { id: admin.user.id },
      target: { type: 'user' },
      changes: { before: { roles: ['Admin'] }, after: { roles: ['User'] } },
    });
  });

  it('a role created through the save call is recorded as role.create with its new id', async () => {
    const res = await post(admin, '/role/create', { id: 0, name: `Audited ${Date.now()}`, permissions: [] });
    expect(res.status).toBe(201);
    const page = await audit(admin, { action: 'role.create' });
    expect(page.events[0]).toMatchObject({ target: { type: 'role', id: String(res.body.role.id) } });
  });

  it('an edit queued offline: offline, with the time it was queued and the time it was applied', async () => {
    const email = address();
    const queuedAt = new Date(Date.now() - 3 * 60 * 60_000).toISOString();
    const key = `audit-offline-${Date.now()}`;
    const headers = { [IDEMPOTENCY_HEADER]: key, [QUEUED_AT_HEADER]: queuedAt };
    await post(owner, '/user/invite', { name: 'Queued', email }, headers).expect(201);
    // The outbox's retry of the same key is answered from the store and records nothing again.
    const replay = await post(owner, '/user/invite', { name: 'Queued', email }, headers);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');

    const page = await audit(owner, { offline: 'true' });
    const events = page.events.filter((e) => e.target.id === email);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ offline: true, queuedAt });
    expect(new Date(events[0]!.appliedAt).getTime()).toBeGreaterThan(new Date(queuedAt).getTime());
    expect(page.events.every((e) => e.offline)).toBe(true);
  });

  it('a malformed X-Queued-At is refused (400) and nothing is recorded; a future one is taken as now', async () => {
    const count = await h.db.auditEvent.count();
    for (const value of ['yesterday', '2026-13-45T99:00:00Z']) {
      const res = await post(
        owner,
        '/user/invite',
        { name: 'X', email: address() },
        { [QUEUED_AT_HEADER]: value },
      );
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(ERROR_CODES.queuedAtInvalid);
    }
    expect(await h.db.auditEvent.count()).toBe(count);
    const email = address();
    const ahead = new Date(Date.now() + 60 * 60_000).toISOString();
    await post(owner, '/user/invite', { name: 'Ahead', email }, { [QUEUED_AT_HEADER]: ahead }).expect(201);
    const event = (await audit(owner, { offline: 'true' })).events.find((e) => e.target.id === email)!;
    expect(event.offline).toBe(true);
    expect(event.queuedAt! <= event.appliedAt).toBe(true);
  });

  it('a refused or rolled-back call records nothing', async () => {
    const count = await h.db.auditEvent.count();
    const roles = await h.db.role.findMany({ where: { name: 'Admin' } });
    // A stale If-Match: 409 from inside the transaction.
    const stale = await post(
      admin,
      '/user/assignRoles',
      { id: teacher.user.id, roles: [roles[0]!.id] },
      { 'If-Match': '1' },
    );
    expect(stale.status).toBe(409);
    // The same invite again, with an Idempotency-Key: the refusal is kept with the key, the event is not.
    const email = address();
    await post(owner, '/user/invite', { name: 'Once', email }).expect(201);
    const afterFirst = await h.db.auditEvent.count();
    const again = await post(
      owner,
      '/user/invite',
      { name: 'Twice', email },
      { [IDEMPOTENCY_HEADER]: `dup-${n}` },
    );
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
    expect(await h.db.auditEvent.count()).toBe(afterFirst);
    // Refused by permission: nothing.
    const plain = await member(h, owner.tenant, ['User']);
    expect((await post(plain, '/user/invite', { name: 'No', email: address() })).status).toBe(403);
    expect(afterFirst).toBe(count + 1);
    expect(await h.db.auditEvent.count()).toBe(afterFirst);
  });

  it('secrets never reach the log', async () => {
    await post(owner, '/user/edit', {
      name: 'Owner Renamed',
      oldPassword: 'not the password',
      newPassword: 'new password 123',
      confirmPassword: 'new password 123',
    });
    await post(owner, '/user/edit', { name: 'Owner Renamed' }).expect(200);
    const rows = await h.db.auditEvent.findMany({ where: { action: 'profile.update' } });
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows.map((r) => r.changes))).not.toContain('new password 123');
  });
});

describe('who sees what', () => {
  it('another school sees none of these events; a user who is not the owner is refused', async () => {
    const other = await audit(otherOwner);
    expect(other.events.every((e) => e.tenant.id === otherOwner.tenant.id)).toBe(true);
    expect(other.events.some((e) => e.actor.id === owner.user.id)).toBe(false);
    // An owner cannot widen the scope with the admin's tenant filter.
    const widened = await audit(otherOwner, { tenant: owner.tenant.id });
    expect(widened.events.some((e) => e.tenant.id !== otherOwner.tenant.id)).toBe(false);
    expect((await get(teacher, '/audit')).status).toBe(403);
    expect((await get(teacher, '/audit/export')).status).toBe(403);
    // Another tenant's path: the usual 404.
    expect((await request(h.app).get(`${owner.base}/audit`).set(bearer(otherOwner.token))).status).toBe(404);
    expect((await request(h.app).get(`${owner.base}/audit`)).status).toBe(401);
  });

  it('the platform admin sees every tenant, or one', async () => {
    const all = await audit(admin, { pageSize: 100 });
    const tenants = new Set(all.events.map((e) => e.tenant.id));
    expect(tenants.has(owner.tenant.id)).toBe(true);
    expect(tenants.has(admin.tenant.id)).toBe(true);
    const one = await audit(admin, { tenant: owner.tenant.id });
    expect(one.events.length).toBeGreaterThan(0);
    expect(one.events.every((e) => e.tenant.id === owner.tenant.id)).toBe(true);
  });
});

describe('filters, paging, export', () => {
  it('filters by action, actor, time and sorts by time', async () => {
    const all = await audit(owner, { pageSize: 100 });
    expect(all.total).toBe(all.events.length);
    const times = all.events.map((e) => e.appliedAt);
    expect([...times].sort().reverse()).toEqual(times);
    const asc = await audit(owner, { pageSize: 100, sort: 'asc' });
    expect(asc.events.map((e) => e.id)).toEqual(all.events.map((e) => e.id).reverse());

    const byActor = await audit(owner, { actor: owner.user.email.toUpperCase().slice(0, 12) });
    expect(byActor.events.every((e) => e.actor.id === owner.user.id)).toBe(true);
    expect((await audit(owner, { actor: 'nobody-like-this' })).total).toBe(0);

    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await audit(owner, { from: future })).total).toBe(0);
    expect((await audit(owner, { to: future })).total).toBe(all.total);
    expect(
      (await audit(owner, { action: 'user.invite' })).events.every((e) => e.action === 'user.invite'),
    ).toBe(true);
    expect((await get(owner, '/audit', { action: 'drop.table' })).status).toBe(400);
    expect((await get(owner, '/audit', { from: 'last week' })).status).toBe(400);
  });

  it('pages on the server', async () => {
    const all = await audit(owner, { pageSize: 100 });
    expect(all.total).toBeGreaterThanOrEqual(3);
    const first = await audit(owner, { pageSize: 2, page: 1 });
    const second = await audit(owner, { pageSize: 2, page: 2 });
    expect(first.events).toHaveLength(2);
    expect(first.total).toBe(all.total);
    expect([...first.events, ...second.events].map((e) => e.id)).toEqual(
      all.events.slice(0, 2 + second.events.length).map((e) => e.id),
    );
    expect((await get(owner, '/audit', { pageSize: 1000 })).status).toBe(400);
  });

  it('exports the filtered events as CSV with a BOM and the formula guard', async () => {
    const email = address();
    // An actor whose name a spreadsheet would run as a formula.
    await h.db.user.update({ where: { id: owner.user.id }, data: { name: '=SUM(1+1)' } });
    await post(owner, '/user/invite', { name: 'Formula Test', email }).expect(201);
    const res = await get(owner, '/audit/export', { action: 'user.invite' }).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="?audit-log-\d{4}-\d{2}-\d{2}\.csv"?/,
    );
    const text: string = res.text;
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe(
      'Time (UTC),Tenant,Actor,Actor e-mail,Action,Target,Changes,Offline,Queued at (UTC),Request id',
    );
    expect(lines.slice(1).every((line) => line.includes(',user.invite,'))).toBe(true);
    expect(text).toContain(email);
    expect(lines.some((line) => line.includes(",'=SUM(1+1),"))).toBe(true);
    expect(lines.some((line) => line.includes(',=SUM'))).toBe(false);
    const other = await get(otherOwner, '/audit/export').buffer(true);
    expect(other.text).not.toContain(email);
  });
});
