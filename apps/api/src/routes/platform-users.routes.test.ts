import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import type { Plan } from '@helix/server/db';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan, seedRoles } from '@helix/server/testing/factories';
import { startStripeLocal, type StripeLocal } from '@helix/stripe-local';
import { createHarness, type Harness } from '../../test/harness.ts';
import { bearer, customer, member, platformAdmin, type Caller } from '../../test/models.ts';

let h: Harness;
/** Add-user grants the plan through the billing module, which talks to Stripe (here stripe-local). */
let stripe: StripeLocal;
let admin: Caller;
let owner: Caller & { plan: Plan | null };
let plainUser: Caller;
let otherOwner: Caller;
let monthly: Plan;
let yearly: Plan;

beforeAll(async () => {
  stripe = await startStripeLocal({ port: 0 });
  h = await createHarness({
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_API_URL: stripe.url,
    STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
  });
  await seedRoles(h.db);
  admin = await platformAdmin(h);
  owner = await customer(h, { name: 'Acme School' });
  plainUser = await member(h, owner.tenant, ['User']);
  otherOwner = await customer(h);
  monthly = await createPlan(h.db, {
    name: 'Educator Monthly (test)',
    planType: 'MONTHLY',
    family: 'educator',
    userLimit: 10,
    dynamicQuantity: true,
    permissions: CUSTOMER_PLAN_PERMISSIONS,
  });
  yearly = await createPlan(h.db, { name: 'Individual Yearly (test)', planType: 'YEARLY', userLimit: 1 });
});
afterAll(async () => {
  await h?.close();
  await stripe?.stop();
});

let n = 0;
const addUserBody = (over: Record<string, unknown> = {}) => {
  n += 1;
  const userName = `added${Date.now() % 100000}${n}`;
  return {
    name: 'Added Person',
    user_name: userName,
    email: `${userName}@example.test`,
    password: 'a good password',
    emailstatus: false,
    coupon: true,
    trial_period_days: 0,
    planId: monthly.id,
    subscription: 'MONTHLY',
    ...over,
  };
};

const addUser = (caller: Caller, body: object) =>
  request(h.app).post(`${caller.base}/user/add-user`).set(bearer(caller.token)).send(body);

describe('GET /user/all (platform admin)', () => {
  it('lists every user with payment plan and company name', async () => {
    const res = await request(h.app).get(`${admin.base}/user/all`).set(bearer(admin.token));
    expect(res.status).toBe(200);
    const row = res.body.find((u: { id: number }) => u.id === owner.user.id);
    expect(row).toMatchObject({
      name: owner.user.name,
      email: owner.user.email,
      companyName: 'Acme School',
      paymentPlan: owner.plan!.name,
      tenant: owner.tenant.domainPrefix,
    });
    expect(row.roles.map((r: { name: string }) => r.name)).toEqual(['Admin']);
    expect(res.body.some((u: { id: number }) => u.id === otherOwner.user.id)).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('passwordHash');
  });

  it('leaves deleted users out', async () => {
    const gone = await member(h, owner.tenant, ['User']);
    await h.db.user.update({ where: { id: gone.user.id }, data: { deletedAt: new Date() } });
    const res = await request(h.app).get(`${admin.base}/user/all`).set(bearer(admin.token));
    expect(res.body.some((u: { id: number }) => u.id === gone.user.id)).toBe(false);
    expect(res.body.some((u: { id: number }) => u.id === plainUser.user.id)).toBe(true);
  });

  it('never gives a customer the platform list', async () => {
    for (const caller of [owner, plainUser]) {
      const res = await request(h.app).get(`${caller.base}/user/all`).set(bearer(caller.token));
      if (res.status === 200) {
        // The tenant's own users list (users.routes.ts) may answer: never another tenant's users.
        expect(JSON.stringify(res.body)).not.toContain(otherOwner.user.email);
      } else {
        expect([403, 404]).toContain(res.status);
      }
    }
    expect((await request(h.app).get(`${admin.base}/user/all`).set(bearer(otherOwner.token))).status).toBe(
      404,
    );
    expect((await request(h.app).get(`${admin.base}/user/all`)).status).toBe(401);
  });
});

describe('POST /user/add-user', () => {
  it('is for platform admins only', async () => {
    for (const caller of [owner, plainUser]) expect((await addUser(caller, addUserBody())).status).toBe(403);
    const cross = await request(h.app)
      .post(`${admin.base}/user/add-user`)
      .set(bearer(otherOwner.token))
      .send(addUserBody());
    expect(cross.status).toBe(404);
    expect((await request(h.app).post(`${admin.base}/user/add-user`).send(addUserBody())).status).toBe(401);
  });

  it('creates a tenant, its owner and a granted subscription (active, paid, no trial); joins the newsletter on opt-in', async () => {
    const body = addUserBody({ emailstatus: true, quantity: 12 });
    const res = await addUser(admin, body);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(MSG.userAdded);
    const user = await h.db.user.findUniqueOrThrow({
      where: { email: body.email },
      include: { tenant: { include: { subscription: true } }, roles: { include: { role: true } } },
    });
    expect(user).toMatchObject({
      name: 'Added Person',
      userName: body.user_name,
      isOwner: true,
      isAdmin: false,
    });
    expect(user.roles.map((r) => r.role.name)).toEqual(['Admin']);
    expect(user.tenant.domainPrefix).toBe(res.body.user.tenant);
    expect(user.tenant.subscription).toMatchObject({
      planId: monthly.id,
      status: 'active',
      activePayment: true,
      isTrialPassed: true,
      trialEnd: null,
      userLimit: 12,
    });
    expect(await h.db.newsletterSubscriber.count({ where: { email: body.email } })).toBe(1);

    // The new owner can log in and has the plan's permissions.
    const login = await request(h.app)
      .post('/api/user/login')
      .send({ email: body.email, password: body.password });
    expect(login.status).toBe(200);
    expect(login.body.user.paymentPlan).toBe(monthly.name);
    expect(login.body.user.permissions).toContain('User.invite');

    // It shows in the platform list.
    const list = await request(h.app).get(`${admin.base}/user/all`).set(bearer(admin.token));
    expect(list.body.find((u: { email: string }) => u.email === body.email).paymentPlan).toBe(monthly.name);
  });

  it('names the school as given (not after its owner) with the seats chosen; without a name, after the owner', async () => {
    const body = addUserBody({ tenantName: 'Springfield Elementary', quantity: 25, name: 'Sam Principal' });
    expect((await addUser(admin, body)).status).toBe(201);
    const user = await h.db.user.findUniqueOrThrow({
      where: { email: body.email },
      include: { tenant: { include: { subscription: true } } },
    });
    expect(user.tenant.name).toBe('Springfield Elementary');
    expect(user.tenant.subscription?.userLimit).toBe(25);
    const blank = await addUser(admin, addUserBody({ tenantName: '   ' }));
    expect(blank.status).toBe(400);
    expect(blank.body.errors?.tenantName).toBe(MSG.addUserTenantName);
    const unnamed = addUserBody({ name: 'Pat Owner' });
    expect((await addUser(admin, unnamed)).status).toBe(201);
    const pat = await h.db.user.findUniqueOrThrow({
      where: { email: unnamed.email },
      include: { tenant: true },
    });
    expect(pat.tenant.name).toBe('Pat Owner');
  });

  it('without the opt-in the address is not on the newsletter list', async () => {
    const body = addUserBody();
    expect((await addUser(admin, body)).status).toBe(201);
    expect(await h.db.newsletterSubscriber.count({ where: { email: body.email } })).toBe(0);
  });

  it("answers the spec's field messages", async () => {
    const res = await addUser(admin, {});
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject({
      name: MSG.addUserName,
      user_name: MSG.usernameRequired,
      email: MSG.emailRequired,
      password: MSG.passwordRequired,
      planId: MSG.choosePlan,
      subscription: MSG.chooseSubscription,
    });
    const bad = await addUser(admin, addUserBody({ user_name: 'Bad_Name', email: 'nope' }));
    expect(bad.body.errors).toMatchObject({ user_name: MSG.usernameRule, email: MSG.emailInvalid });
    const trial = await addUser(admin, addUserBody({ trial_period_days: 30 }));
    expect(trial.status).toBe(400);
  });

  it('refuses taken e-mails and usernames, unknown plans and a plan of the other type', async () => {
    const taken = await addUser(
      admin,
      addUserBody({ email: owner.user.email, user_name: owner.user.userName }),
    );
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toMatchObject({ email: MSG.emailTaken, user_name: MSG.usernameTaken });
    const unknown = await addUser(admin, addUserBody({ planId: 999999 }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.planId).toBe(MSG.planNotFound);
    const mismatch = await addUser(admin, addUserBody({ planId: yearly.id, subscription: 'MONTHLY' }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors.planId).toBe(MSG.planTypeMismatch);
    const tenants = await h.db.tenant.count();
    expect((await addUser(admin, addUserBody({ planId: yearly.id, subscription: 'YEARLY' }))).status).toBe(
      201,
    );
    expect(await h.db.tenant.count()).toBe(tenants + 1);
  });
});
