import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, RECORDING_MAX_SECONDS } from '@helix/shared';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan } from '@helix/server/testing/factories';
import { signViewerTicket } from '@helix/server/models/signing';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  member,
  platformAdmin,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';

/**
 * Screen recording (issue 10, Screen.record + plan screenRecord): the viewer lookup says whether the
 * Record control is offered for that load, and GET /api/viewer/record decides again at every start.
 */
let h: ModelHarness;

beforeAll(async () => {
  h = await createModelHarness();
});
afterAll(async () => {
  await h?.close();
});

const VIEWER = 'http://viewer.test';

const recordingPlan = () =>
  createPlan(h.db, {
    modelEmbed: true,
    screenRecord: true,
    viewLimit: 1000,
    permissions: [...CUSTOMER_PLAN_PERMISSIONS, 'Screen.record'],
  });
const plainPlan = (permissions = CUSTOMER_PLAN_PERMISSIONS) =>
  createPlan(h.db, { modelEmbed: true, screenRecord: false, viewLimit: 1000, permissions });

const paramsOf = (url: string) => Object.fromEntries(new URL(url).searchParams.entries());

async function viewerParams(caller: Caller, modelId: number) {
  const res = await request(h.app)
    .post(`${caller.base}/model/viewer-url`)
    .set(bearer(caller.token))
    .send({ id: modelId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return paramsOf(res.body.url as string);
}

const lookup = (params: Record<string, string>) =>
  request(h.app).get('/api/viewer/model').query(params).set('Origin', VIEWER);

const record = (params: { model: string; subscription: string }) =>
  request(h.app)
    .get('/api/viewer/record')
    .query({ model: params.model, subscription: params.subscription })
    .set('Origin', VIEWER);

async function expectAllowed(params: Record<string, string>) {
  const load = await lookup(params);
  expect(load.status, JSON.stringify(load.body)).toBe(200);
  expect(load.body.record).toBe(true);
  const res = await record({ model: params.model!, subscription: params.subscription! });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ record: true, maxSeconds: RECORDING_MAX_SECONDS });
  expect(res.headers['access-control-allow-origin']).toBe(VIEWER);
  expect(res.headers['cache-control']).toBe('no-store');
}

async function expectRefused(params: Record<string, string>) {
  const load = await lookup(params);
  expect(load.status, JSON.stringify(load.body)).toBe(200);
  expect(load.body.record).toBe(false);
  const res = await record({ model: params.model!, subscription: params.subscription! });
  expect(res.status).toBe(403);
  expect(res.body).toMatchObject({ statusCode: 403, message: MSG.recordNotAllowed });
}

describe('screen recording: Screen.record and the plan screenRecord', () => {
  it('is allowed to a user holding Screen.record on a plan with screenRecord', async () => {
    const a = await customer(h, { plan: await recordingPlan() });
    const model = await createModel(h);
    await expectAllowed(await viewerParams(a, model.id));
  });

  it('is refused to a user whose roles lack Screen.record', async () => {
    const a = await customer(h, { plan: await recordingPlan() });
    const user = await member(h, a.tenant, ['User']);
    const model = await createModel(h);
    await expectRefused(await viewerParams(user, model.id));
  });

  it('is refused on a plan without screenRecord, even if its permission list names Screen.record', async () => {
    const model = await createModel(h);
    const a = await customer(h, { plan: await plainPlan() });
    await expectRefused(await viewerParams(a, model.id));
    const b = await customer(h, { plan: await plainPlan([...CUSTOMER_PLAN_PERMISSIONS, 'Screen.record']) });
    await expectRefused(await viewerParams(b, model.id));
  });

  it('a plan downgrade or a plan no longer in force removes it at the next request', async () => {
    const a = await customer(h, { plan: await recordingPlan() });
    const model = await createModel(h);
    const params = await viewerParams(a, model.id);
    await expectAllowed(params);

    const lower = await plainPlan();
    await h.db.tenantSubscription.update({ where: { tenantId: a.tenant.id }, data: { planId: lower.id } });
    // The same ticket, the same page: the Record start is refused at once.
    const res = await record({ model: params.model!, subscription: params.subscription! });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MSG.recordNotAllowed);
    await expectRefused(await viewerParams(a, model.id));

    const higher = await recordingPlan();
    await h.db.tenantSubscription.update({ where: { tenantId: a.tenant.id }, data: { planId: higher.id } });
    await expectAllowed(params);
    // A deactivated plan: the portal refuses the viewer, the open viewer's Record start is refused.
    await h.db.tenantSubscription.update({
      where: { tenantId: a.tenant.id },
      data: { status: 'deactivated', activePayment: false },
    });
    expect((await record({ model: params.model!, subscription: params.subscription! })).status).toBe(403);
  });

  it('a role change takes effect at the next request', async () => {
    const a = await customer(h, { plan: await recordingPlan() });
    const model = await createModel(h);
    const params = await viewerParams(a, model.id);
    await expectAllowed(params);
    const userRole = await h.db.role.findUniqueOrThrow({ where: { name: 'User' } });
    await h.db.userRole.deleteMany({ where: { userId: a.user.id } });
    await h.db.userRole.create({ data: { userId: a.user.id, roleId: userRole.id } });
    expect((await record({ model: params.model!, subscription: params.subscription! })).status).toBe(403);
  });

  it('is allowed to a platform admin holding Screen.record (the platform needs no plan)', async () => {
    const admin = await platformAdmin(h);
    const model = await createModel(h);
    await expectAllowed(await viewerParams(admin, model.id));
  });

  it('share and embed tokens never record', async () => {
    const a = await customer(h, { plan: await recordingPlan() });
    const model = await createModel(h);
    const made = await request(h.app)
      .post(`${a.base}/model/embed`)
      .set(bearer(a.token))
      .send({ id: model.id, settings: ['info'] });
    expect(made.status).toBe(200);
    const token = made.body.token as string;
    const load = await lookup({
      model: model.urlModelName,
      subscription: token,
      currentmode: 'embedding',
      viewer: randomBytes(16).toString('base64url'),
    });
    expect(load.status).toBe(200);
    expect(load.body.record).toBe(false);
    // `record=true` added by a visitor is not a parameter the API knows.
    const added = await lookup({
      model: model.urlModelName,
      subscription: token,
      currentmode: 'embedding',
      record: 'true',
    });
    expect(added.status).toBe(400);
    const res = await record({ model: model.urlModelName, subscription: token });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MSG.recordNotAllowed);
  });

  it('accepts a ticket up to 12 hours past its life, not later nor forged, and only for its own model', async () => {
    const a = await customer(h, { plan: await recordingPlan() });
    const model = await createModel(h);
    const other = await createModel(h);
    const claims = { tenantId: a.tenant.id, userId: a.user.id, modelId: model.id };
    const lapsed = signViewerTicket(h.config.SIGNING_SECRET, claims, -3600);
    expect((await record({ model: model.urlModelName, subscription: lapsed })).status).toBe(200);
    const old = signViewerTicket(h.config.SIGNING_SECRET, claims, -13 * 3600);
    expect((await record({ model: model.urlModelName, subscription: old })).status).toBe(403);
    const forged = signViewerTicket('another-secret-of-enough-length-000000', claims);
    expect((await record({ model: model.urlModelName, subscription: forged })).status).toBe(403);
    const fresh = signViewerTicket(h.config.SIGNING_SECRET, claims);
    expect((await record({ model: other.urlModelName, subscription: fresh })).status).toBe(404);
  });

  it('answers 400 for malformed queries', async () => {
    for (const query of [{}, { model: 'Bad Name', subscription: 'x' }, { model: 'a', subscription: '' }]) {
      const res = await request(h.app).get('/api/viewer/record').query(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
    }
  });
});
