import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlanView } from '@helix/shared/schemas/plan';
import { BrandingView } from '@helix/shared/schemas/tenant';
import { createHarness, type Harness } from '../../test/harness.ts';
import { createPlan, createTenant, createUser, PASSWORD, seedRoles } from '@helix/server/testing/factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
});
afterAll(async () => {
  await h?.close();
});

describe('plans', () => {
  it('lists the active catalogue for guests, prices as numbers', async () => {
    const monthly = await createPlan(h.db, {
      name: 'Individual Monthly',
      sortOrder: 1,
      dynamicQuantity: true,
      screenRecord: true,
      permissions: ['Screen.record'],
    });
    const yearly = await createPlan(h.db, {
      name: 'Individual Yearly',
      sortOrder: 2,
      planType: 'YEARLY',
      displayPlantype: 'YEARLY',
      billedAnnually: true,
    });
    await createPlan(h.db, { name: 'Retired', status: false });
    const res = await request(h.app).get('/api/guest/subscription/list');
    expect(res.status).toBe(200);
    const plans = res.body.map((p: unknown) => PlanView.parse(p));
    expect(plans.map((p: PlanView) => p.name)).toEqual(['Individual Monthly', 'Individual Yearly']);
    expect(plans[0]).toMatchObject({
      id: monthly.id,
      price: 4.5,
      firstTierPrice: 19.99,
      dynamicQuantity: 'true',
      isSubscribed: 0,
      permissions: ['Screen.record'],
      screenRecord: true,
    });
    expect(plans[1]).toMatchObject({
      id: yearly.id,
      displayPlantype: 'YEARLY',
      billedAnnually: true,
      dynamicQuantity: 'false',
    });
  });

  it("marks the tenant's plan with isSubscribed 1 (session needed)", async () => {
    const plans = await h.db.plan.findMany({ where: { status: true }, orderBy: { id: 'asc' } });
    const tenant = await createTenant(h.db, { plan: plans[1]!, status: 'trialing' });
    const user = await createUser(h.db, { tenant, roles: ['User'], isOwner: false });
    const token = (
      await request(h.app).post('/api/user/login').send({ email: user.email, password: PASSWORD })
    ).body.apiToken;
    expect((await request(h.app).get(`/api/t/${tenant.domainPrefix}/subscriptionplan/all`)).status).toBe(401);
    const res = await request(h.app)
      .get(`/api/t/${tenant.domainPrefix}/subscriptionplan/all`)
      .set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body.map((p: PlanView) => [p.id, p.isSubscribed])).toEqual([
      [plans[0]!.id, 0],
      [plans[1]!.id, 1],
    ]);
  });
});

describe('branding', () => {
  it('finds a tenant by custom domain or brand name without a session', async () => {
    const tenant = await createTenant(h.db, {
      customBrandName: 'AcmeBio',
      customDomainName: 'models.acme.test',
      name: 'Acme',
    });
    await h.db.branding.update({
      where: { tenantId: tenant.id },
      data: { primaryColor: '#112233', brandLogo: 'images/logo-acme.webp' },
    });
    for (const body of [
      { brandName: 'acmebio' },
      { domain: 'MODELS.acme.test' },
      { domain: 'unknown.test', brandName: 'AcmeBio' },
    ]) {
      const res = await request(h.app).post('/api/tenant/custom-branding-detail').send(body);
      expect(res.status).toBe(200);
      expect(BrandingView.parse(res.body)).toMatchObject({
        tenant: tenant.domainPrefix,
        customBrandName: 'AcmeBio',
        primaryColor: '#112233',
        textColor: '#ffffff',
        brandLogo: '/api/files/images/logo-acme.webp',
      });
    }
    const missing = await request(h.app)
      .post('/api/tenant/custom-branding-detail')
      .send({ brandName: 'nobody' });
    expect(missing.status).toBe(404);
    const none = await request(h.app).post('/api/tenant/custom-branding-detail').send({});
    // Neither: the request's host (here the portal's own, without a white label): nothing to show.
    expect(none.status).toBe(204);
  });

  it("answers the caller's own branding at /tenant/get", async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const token = (
      await request(h.app).post('/api/user/login').send({ email: user.email, password: PASSWORD })
    ).body.apiToken;
    const res = await request(h.app)
      .get(`/api/t/${tenant.domainPrefix}/tenant/get`)
      .set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tenant: tenant.domainPrefix, primaryColor: '#5f51fb' });
  });
});

describe('client error log', () => {
  it('logs at the given level and answers 204', async () => {
    const res = await request(h.app)
      .post('/api/logs')
      .send({ message: 'boom in the page', error: 'Error: boom\n at x', level: 'warn' });
    expect(res.status).toBe(204);
    const line = h.logs.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'boom in the page');
    expect(line).toMatchObject({ level: 40, source: 'web-client', clientError: 'Error: boom\n at x' });
    const defaulted = await request(h.app).post('/api/logs').send({ message: 'default level' });
    expect(defaulted.status).toBe(204);
    expect(h.logs.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'default level')?.level).toBe(50);
    const bad = await request(h.app).post('/api/logs').send({ message: 'x', level: 'fatal' });
    expect(bad.status).toBe(400);
  });
});
