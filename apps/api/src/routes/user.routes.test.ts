import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, PERMISSIONS, USER_ROLE_PERMISSIONS } from '@helix/shared';
import { AuthResponse, SessionUser } from '@helix/shared/schemas/session';
import { sha256 } from '@helix/server/tokens';
import { createHarness, type Harness } from '../../test/harness.ts';
import {
  createInvite,
  CUSTOMER_PLAN_PERMISSIONS,
  createPlan,
  createTenant,
  createUser,
  PASSWORD,
  seedRoles,
  uniqueName,
} from '@helix/server/testing/factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
});
afterAll(async () => {
  await h?.close();
});

const signup = (over: Record<string, unknown> = {}) => {
  const userName = uniqueName('sam');
  return {
    name: 'Sam Doe',
    user_name: userName,
    email: `${userName}@example.test`,
    password: 'secret pass 1',
    emailstatus: false,
    ...over,
  };
};

const login = (email: string, password = PASSWORD, extra: Record<string, unknown> = {}) =>
  request(h.app)
    .post('/api/user/login')
    .send({ email, password, ...extra });

const info = (tenant: string, token: string) =>
  request(h.app).get(`/api/t/${tenant}/user/info`).set('Authorization', `Bearer ${token}`);

describe('POST /api/user/register', () => {
  it('makes a customer tenant and its owner, and logs in (is-register)', async () => {
    const body = signup({ emailstatus: true });
    const res = await request(h.app).post('/api/user/register').send(body);
    expect(res.status).toBe(201);
    const answer = AuthResponse.parse(res.body);
    expect(answer.authType).toBe('is-register');
    expect(answer.message).toBe(MSG.registrationSuccess);
    expect(answer.tenant).toBe(body.user_name);
    expect(answer.user).toMatchObject({
      email: body.email,
      userName: body.user_name,
      isOwner: true,
      isAdmin: false,
      type: 'owner',
      paymentPlan: null,
    });
    expect(answer.user.subscription).toMatchObject({ status: 'none', activePayment: false });
    expect(answer.user.roles.map((r) => r.name)).toEqual(['Admin']);
    // Without a plan in force only the base permissions stay (profile, subscription page).
    expect(answer.user.permissions).toEqual(['Profile.update', 'Profile.view', 'Subscription.listing.view']);
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|tokenHash|\$argon2/);

    const user = await h.db.user.findUniqueOrThrow({
      where: { email: body.email },
      include: { tenant: { include: { branding: true, subscription: true } } },
    });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.emailStatus).toBe(true);
    expect(user.tenant.name).toBe('Sam Doe');
    expect(user.tenant.branding?.primaryColor).toBe('#5f51fb');
    expect(user.tenant.subscription?.status).toBe('none');
    expect(await h.db.newsletterSubscriber.count({ where: { email: body.email } })).toBe(1);

    const me = await info(answer.tenant, answer.apiToken);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);
  });

  it('refuses a new password under 8 characters (the one rule, as set-password and add-user)', async () => {
    const res = await request(h.app)
      .post('/api/user/register')
      .send(signup({ password: '1234567' }));
    expect(res.status).toBe(400);
    expect(res.body.errors.password).toBe(MSG.passwordMin8);
    expect(
      (
        await request(h.app)
          .post('/api/user/register')
          .send(signup({ password: '12345678' }))
      ).status,
    ).toBe(201);
  });

  it('stores the e-mail lower-cased and gives the tenant prefix a number when the username is taken as a prefix', async () => {
    const taken = uniqueName('acme');
    await createTenant(h.db, { domainPrefix: taken });
    const res = await request(h.app)
      .post('/api/user/register')
      .send(signup({ user_name: taken, email: `${taken}@EXAMPLE.test` }));
    expect(res.status).toBe(201);
    expect(res.body.tenant).toBe(`${taken}2`);
    expect(res.body.user.email).toBe(`${taken}@example.test`);
  });

  it.each([
    ['name', MSG.nameRequired],
    ['user_name', MSG.usernameRequired],
    ['email', MSG.emailRequired],
    ['password', MSG.passwordRequired],
  ])('answers a field error when %s is missing', async (field, message) => {
    const body: Record<string, unknown> = signup();
    delete body[field];
    const res = await request(h.app).post('/api/user/register').send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', errors: { [field]: message } });
  });

  it.each([['name'], ['user_name'], ['email'], ['password']])(
    'answers a field error when %s is empty',
    async (field) => {
      const res = await request(h.app)
        .post('/api/user/register')
        .send(signup({ [field]: field === 'password' ? '' : '   ' }));
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    },
  );

  it.each(['Sam', 'sam_1', '1sam', 'sam1a', 'sam doe', 'sàm'])(
    'refuses the username %j (username rule)',
    async (userName) => {
      const res = await request(h.app)
        .post('/api/user/register')
        .send(signup({ user_name: userName }));
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ user_name: MSG.usernameRule });
    },
  );

  it('refuses an invalid e-mail address', async () => {
    const res = await request(h.app)
      .post('/api/user/register')
      .send(signup({ email: 'not-an-address' }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ email: MSG.emailInvalid });
  });

  it('answers duplicates as field errors (409), both at once', async () => {
    const first = signup();
    expect((await request(h.app).post('/api/user/register').send(first)).status).toBe(201);

    const sameEmail = await request(h.app)
      .post('/api/user/register')
      .send(signup({ email: first.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      code: 'CONFLICT',
      message: MSG.emailTaken,
      errors: { email: MSG.emailTaken },
    });

    const sameName = await request(h.app)
      .post('/api/user/register')
      .send(signup({ user_name: first.user_name }));
    expect(sameName.status).toBe(409);
    expect(sameName.body.errors).toEqual({ user_name: MSG.usernameTaken });

    const both = await request(h.app)
      .post('/api/user/register')
      .send({ ...first });
    expect(both.body.errors).toEqual({ email: MSG.emailTaken, user_name: MSG.usernameTaken });
  });

  it('keeps the field errors when two identical sign-ups race', async () => {
    const body = signup();
    const answers = await Promise.all(
      [1, 2, 3].map(() => request(h.app).post('/api/user/register').send(body)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.errors).toBeDefined();
  });
});

describe('POST /api/user/login', () => {
  it('answers authType, apiToken and tenant; the session lasts 24 hours without remember me', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const res = await login(user.email);
    expect(res.status).toBe(200);
    const answer = AuthResponse.parse(res.body);
    expect(answer).toMatchObject({ authType: 'is-loggedin', tenant: tenant.domainPrefix, rememberMe: false });
    expect(answer.apiToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = await h.db.session.findUniqueOrThrow({ where: { tokenHash: sha256(answer.apiToken) } });
    const hours = (session.expiresAt.getTime() - session.createdAt.getTime()) / 3600_000;
    expect(hours).toBeCloseTo(24, 1);
    // Only the hash is stored.
    expect(await h.db.session.count({ where: { tokenHash: answer.apiToken } })).toBe(0);
  });

  it('keeps a remember-me session 365 days', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const res = await login(user.email.toUpperCase(), PASSWORD, { rememberMe: true });
    expect(res.status).toBe(200);
    expect(res.body.rememberMe).toBe(true);
    const session = await h.db.session.findUniqueOrThrow({ where: { tokenHash: sha256(res.body.apiToken) } });
    const days = (session.expiresAt.getTime() - session.createdAt.getTime()) / 86_400_000;
    expect(days).toBeCloseTo(365, 3);
  });

  it('answers 400 with a field error for a wrong password, an unknown address, a deleted user or no password', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const deleted = await createUser(h.db, { tenant, deletedAt: new Date() });
    const invited = await createUser(h.db, { tenant, password: null });
    const expected = {
      statusCode: 400,
      error: 'Bad Request',
      code: 'INVALID_CREDENTIALS',
      message: MSG.invalidCredentials,
      errors: { password: MSG.invalidCredentials },
    };
    for (const res of [
      await login(user.email, 'wrong password'),
      await login('nobody@example.test'),
      await login(deleted.email),
      await login(invited.email, ''),
      await login(invited.email, 'anything'),
    ]) {
      if (res.body.errors?.password === MSG.loginPasswordRequired) continue; // the empty password
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
    }
  });

  it('answers the spec messages for missing fields', async () => {
    const res = await request(h.app).post('/api/user/login').send({});
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ email: MSG.loginEmailRequired, password: MSG.loginPasswordRequired });
  });
});

describe('sessions', () => {
  it('one computer at a time: a new login ends the other session with 401 Invalid token', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const first = (await login(user.email)).body.apiToken as string;
    expect((await info(tenant.domainPrefix, first)).status).toBe(200);
    const second = (await login(user.email)).body.apiToken as string;

    const old = await info(tenant.domainPrefix, first);
    expect(old.status).toBe(401);
    expect(old.body).toEqual({
      statusCode: 401,
      error: 'Invalid token',
      code: 'INVALID_TOKEN',
      message: 'Invalid token',
    });
    expect((await info(tenant.domainPrefix, second)).status).toBe(200);
  });

  it('two logins at the same moment leave exactly one session', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    await Promise.all([login(user.email), login(user.email), login(user.email)]);
    expect(await h.db.session.count({ where: { userId: user.id, endedAt: null } })).toBe(1);
  });

  it('answers 401 Unauthorized for no, malformed, unknown and expired tokens', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const token = (await login(user.email)).body.apiToken as string;
    await h.db.session.updateMany({
      where: { userId: user.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const unauthorized = {
      statusCode: 401,
      error: 'Unauthorized',
      code: 'UNAUTHORIZED',
      message: MSG.sessionExpired,
    };
    for (const res of [
      await request(h.app).get(`/api/t/${tenant.domainPrefix}/user/info`),
      await request(h.app).get(`/api/t/${tenant.domainPrefix}/user/info`).set('Authorization', 'Basic abc'),
      await info(tenant.domainPrefix, 'x'.repeat(43)),
      await info(tenant.domainPrefix, '<script>'),
      await info(tenant.domainPrefix, token),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized);
    }
  });

  it('logout ends the session on the server (then plain 401)', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const token = (await login(user.email)).body.apiToken as string;
    const out = await request(h.app)
      .post(`/api/t/${tenant.domainPrefix}/user/logout`)
      .set('Authorization', `Bearer ${token}`)
      .send({});
    expect(out.status).toBe(204);
    const after = await info(tenant.domainPrefix, token);
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('Unauthorized');
    const session = await h.db.session.findUniqueOrThrow({ where: { tokenHash: sha256(token) } });
    expect(session.endedReason).toBe('logout');
  });

  it('a deleted user is logged out', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const token = (await login(user.email)).body.apiToken as string;
    await h.db.user.update({ where: { id: user.id }, data: { deletedAt: new Date() } });
    expect((await info(tenant.domainPrefix, token)).status).toBe(401);
  });
});

describe('GET /api/t/:tenant/user/info', () => {
  it('answers the session user with plan-limited permissions and paymentPlan', async () => {
    const plan = await createPlan(h.db, {
      name: 'Starter',
      screenRecord: true,
      customBranding: true,
      permissions: ['Customersupport', 'Model.listing.view', 'Model.view', 'Profile.view'],
    });
    const tenant = await createTenant(h.db, { plan, status: 'active' });
    const owner = await createUser(h.db, { tenant });
    const token = (await login(owner.email)).body.apiToken as string;
    const res = await info(tenant.domainPrefix, token);
    expect(res.status).toBe(200);
    const user = SessionUser.parse(res.body);
    expect(user.paymentPlan).toBe('Starter');
    expect(user.subscription).toMatchObject({
      status: 'active',
      activePayment: true,
      planId: plan.id,
      name: 'Starter',
    });
    // The owner's Admin role holds everything; the plan's list and flags decide what counts.
    expect(user.permissions).toEqual([
      'Brand.update',
      'Model.listing.view',
      'Model.view',
      'Profile.view',
      'Screen.record',
      'Customersupport',
    ]);

    // A plan change shows on the next refresh.
    await h.db.tenantSubscription.update({ where: { tenantId: tenant.id }, data: { status: 'deactivated' } });
    const after = SessionUser.parse((await info(tenant.domainPrefix, token)).body);
    expect(after.paymentPlan).toBeNull();
    expect(after.permissions).toEqual(['Profile.update', 'Profile.view', 'Subscription.listing.view']);
  });

  it('gives an ordinary user the User role permissions and a platform admin all of theirs', async () => {
    const plan = await createPlan(h.db, { permissions: CUSTOMER_PLAN_PERMISSIONS });
    const tenant = await createTenant(h.db, { plan, status: 'active' });
    const member = await createUser(h.db, { tenant, roles: ['User'], isOwner: false });
    const token = (await login(member.email)).body.apiToken as string;
    const user = SessionUser.parse((await info(tenant.domainPrefix, token)).body);
    expect(user.type).toBe('user');
    // Model.embed follows the plan's modelEmbed flag, off here.
    expect(user.permissions).toEqual(
      PERMISSIONS.filter((p) => USER_ROLE_PERMISSIONS.includes(p) && p !== 'Model.embed'),
    );

    // Without a plan in force: the profile only.
    const unpaid = await createTenant(h.db);
    const other = await createUser(h.db, { tenant: unpaid, roles: ['User'], isOwner: false });
    const otherToken = (await login(other.email)).body.apiToken as string;
    expect(SessionUser.parse((await info(unpaid.domainPrefix, otherToken)).body).permissions).toEqual([
      'Profile.update',
      'Profile.view',
    ]);

    const platform = await createTenant(h.db, { domainPrefix: 'services', isPlatform: true });
    const admin = await createUser(h.db, { tenant: platform, isAdmin: true, isOwner: false });
    const adminToken = (await login(admin.email)).body.apiToken as string;
    const adminUser = SessionUser.parse((await info('services', adminToken)).body);
    expect(adminUser).toMatchObject({ type: 'admin', isAdmin: true, tenant: 'services' });
    expect(adminUser.permissions).toEqual([...PERMISSIONS]);
  });

  it("answers 404 for a path tenant that is not the caller's (existing or not)", async () => {
    const mine = await createTenant(h.db);
    const other = await createTenant(h.db);
    const user = await createUser(h.db, { tenant: mine });
    const token = (await login(user.email)).body.apiToken as string;
    for (const path of [other.domainPrefix, 'does-not-exist', 'services']) {
      const res = await info(path, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        statusCode: 404,
        error: 'Not Found',
        code: 'NOT_FOUND',
        message: MSG.notFound,
      });
    }
  });

  it('refuses query parameters', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const token = (await login(user.email)).body.apiToken as string;
    const res = await request(h.app)
      .get(`/api/t/${tenant.domainPrefix}/user/info?admin=1`)
      .set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ admin: MSG.unknownField });
  });
});

describe('POST /api/user/join', () => {
  it('lets an invited user set name, username and password, once', async () => {
    const tenant = await createTenant(h.db);
    const { user, token } = await createInvite(h.db, { tenant });
    const body = {
      name: 'Ivy',
      user_name: uniqueName('ivy'),
      email: user.email,
      password: 'ivy password',
      emailstatus: false,
      token,
    };
    const res = await request(h.app).post('/api/user/join').send(body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      authType: 'is-loggedin',
      tenant: tenant.domainPrefix,
      user: { id: user.id, name: 'Ivy', userName: body.user_name },
    });
    expect((await login(user.email, 'ivy password')).status).toBe(200);

    const again = await request(h.app)
      .post('/api/user/join')
      .send({ ...body, user_name: uniqueName('ivy') });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual({ token: MSG.inviteInvalid });
  });

  it('also joins through /user/register with a token', async () => {
    const tenant = await createTenant(h.db);
    const { user, token } = await createInvite(h.db, { tenant });
    const res = await request(h.app)
      .post('/api/user/register')
      .send({
        name: 'Ian',
        user_name: uniqueName('ian'),
        email: user.email,
        password: 'ian password',
        emailstatus: true,
        token,
      });
    expect(res.status).toBe(201);
    expect(res.body.tenant).toBe(tenant.domainPrefix);
  });

  it('refuses unknown, expired and used tokens, another address and a taken username', async () => {
    const tenant = await createTenant(h.db);
    const expired = await createInvite(h.db, { tenant, expiresAt: new Date(Date.now() - 1000) });
    const used = await createInvite(h.db, { tenant, usedAt: new Date() });
    const good = await createInvite(h.db, { tenant });
    const existing = await createUser(h.db, { tenant });
    const base = { name: 'X', password: 'whatever1', emailstatus: false };
    const send = (b: Record<string, unknown>) =>
      request(h.app)
        .post('/api/user/join')
        .send({ ...base, ...b });

    for (const res of [
      await send({ token: 'nope', email: good.user.email, user_name: uniqueName('x') }),
      await send({ token: expired.token, email: expired.user.email, user_name: uniqueName('x') }),
      await send({ token: used.token, email: used.user.email, user_name: uniqueName('x') }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ token: MSG.inviteInvalid });
    }
    const missing = await send({ email: good.user.email, user_name: uniqueName('x') });
    expect(missing.body.errors).toEqual({ token: MSG.inviteInvalid });

    const otherEmail = await send({
      token: good.token,
      email: 'other@example.test',
      user_name: uniqueName('x'),
    });
    expect(otherEmail.status).toBe(400);
    expect(otherEmail.body.errors).toEqual({ email: MSG.inviteEmailMismatch });

    const takenName = await send({ token: good.token, email: good.user.email, user_name: existing.userName });
    expect(takenName.status).toBe(409);
    expect(takenName.body.errors).toEqual({ user_name: MSG.usernameTaken });
  });
});

describe('POST /api/validate-user', () => {
  it('says whether an address and a username are free', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const res = await request(h.app)
      .post('/api/validate-user')
      .send({ email: user.email, user_name: uniqueName('free') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email: 'taken', user_name: 'available' });
    const bad = await request(h.app).post('/api/validate-user').send({ user_name: 'Bad Name' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ user_name: MSG.usernameRule });
  });
});

describe('logs', () => {
  it('never contain passwords or tokens', async () => {
    const body = signup({ password: 'pw-SECRET-in-logs-1' });
    const reg = await request(h.app).post('/api/user/register').send(body);
    const token = reg.body.apiToken as string;
    await login(body.email, 'pw-SECRET-in-logs-1');
    await login(body.email, 'pw-WRONG-in-logs-2');
    await request(h.app).get(`/api/t/${reg.body.tenant}/user/info`).set('Authorization', `Bearer ${token}`);
    await request(h.app)
      .post('/api/logs')
      .send({ message: 'client broke', error: 'TypeError: x', level: 'warn' });
    const text = h.logs.text;
    expect(text).toContain('client broke');
    expect(text).toContain('/api/user/login');
    expect(text).not.toContain('pw-SECRET-in-logs-1');
    expect(text).not.toContain('pw-WRONG-in-logs-2');
    expect(text).not.toContain(token);
  });
});
