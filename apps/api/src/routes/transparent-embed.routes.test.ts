import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { EmbedDetail } from '@helix/shared/schemas/model';
import { EmbedLinkList } from '@helix/shared/schemas/embed-link';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan } from '@helix/server/testing/factories';
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
 * Transparent embeds (issue 10, Background.transparent + plan transparentBackgroundWebEmbeding): made
 * only by those who may, served transparent only while the plan includes it, else the tenant's
 * background with transparentFallback.
 */
let h: ModelHarness;

beforeAll(async () => {
  h = await createModelHarness();
});
afterAll(async () => {
  await h?.close();
});

const transparentPlan = () =>
  createPlan(h.db, {
    modelEmbed: true,
    transparentBackgroundWebEmbeding: true,
    viewLimit: 1000,
    permissions: [...CUSTOMER_PLAN_PERMISSIONS, 'Background.transparent'],
  });
const plainPlan = () =>
  createPlan(h.db, { modelEmbed: true, viewLimit: 1000, permissions: CUSTOMER_PLAN_PERMISSIONS });

const makeLink = (caller: Caller, body: object) =>
  request(h.app).post(`${caller.base}/model/embed`).set(bearer(caller.token)).send(body);

const detail = (token: string) => request(h.app).post('/api/model/embed/detail').send({ token });

const lookup = (url: string) =>
  request(h.app)
    .get('/api/viewer/model')
    .query(Object.fromEntries(new URL(url).searchParams.entries())) // with the detail's viewer token
    .set('Origin', 'http://viewer.test');

async function transparentLink(caller: Caller, modelId: number, settings = ['info', 'labels']) {
  const res = await makeLink(caller, { id: modelId, settings, transparentBackground: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

describe('transparent embeds: Background.transparent and transparentBackgroundWebEmbeding', () => {
  it('a user with the permission on a plan with the feature makes a transparent link; every load says so', async () => {
    const a = await customer(h, { plan: await transparentPlan() });
    const model = await createModel(h);
    const token = await transparentLink(a, model.id);

    const d = await detail(token);
    expect(d.status).toBe(200);
    expect(EmbedDetail.parse(d.body)).toEqual(d.body);
    expect(d.body).toMatchObject({
      transparentBackground: true,
      transparentFallback: false,
      settings: ['info', 'labels'],
    });

    const v = await lookup(d.body.url);
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    expect(v.body).toMatchObject({ transparentBackground: true, transparentFallback: false, record: false });
    expect(v.body.settings).toEqual(['info', 'labels']);

    const links = await request(h.app).get(`${a.base}/model/links`).set(bearer(a.token));
    expect(EmbedLinkList.parse(links.body).links[0]).toMatchObject({ transparentBackground: true });
  });

  it('an ordinary link is never transparent', async () => {
    const a = await customer(h, { plan: await transparentPlan() });
    const model = await createModel(h);
    const res = await makeLink(a, { id: model.id, settings: ['background_color'] });
    const d = await detail(res.body.token);
    expect(d.body).toMatchObject({ transparentBackground: false, transparentFallback: false });
    expect((await lookup(d.body.url)).body).toMatchObject({
      transparentBackground: false,
      transparentFallback: false,
    });
  });

  it('is refused (403) to a user whose roles lack Background.transparent', async () => {
    const a = await customer(h, { plan: await transparentPlan() });
    const user = await member(h, a.tenant, ['User']);
    const model = await createModel(h);
    // The User role may embed, just not transparently.
    expect((await makeLink(user, { id: model.id, settings: ['info'] })).status).toBe(200);
    const res = await makeLink(user, { id: model.id, settings: ['info'], transparentBackground: true });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MSG.transparentNotAllowed);
    expect(
      await h.db.embedToken.count({ where: { createdById: user.user.id, transparentBackground: true } }),
    ).toBe(0);
  });

  it('is refused (403) on a plan without the feature, even to an Admin', async () => {
    const a = await customer(h, { plan: await plainPlan() });
    const model = await createModel(h);
    const res = await makeLink(a, { id: model.id, settings: ['info'], transparentBackground: true });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MSG.transparentNotAllowed);
  });

  it('refuses transparent together with background or background_color (the UI keeps only the last picked)', async () => {
    const a = await customer(h, { plan: await transparentPlan() });
    const model = await createModel(h);
    for (const flag of ['background', 'background_color']) {
      const res = await makeLink(a, { id: model.id, settings: [flag], transparentBackground: true });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.errors).toMatchObject({ transparentBackground: MSG.transparentExclusive });
    }
    expect(
      (await makeLink(a, { id: model.id, settings: ['info'], transparentBackground: 'yes' })).status,
    ).toBe(400);
  });

  it('falls back to the tenant background at the next load once the plan no longer includes it', async () => {
    const a = await customer(h, { plan: await transparentPlan() });
    await h.db.branding.update({ where: { tenantId: a.tenant.id }, data: { backgroundColor: '#123456' } });
    const model = await createModel(h);
    const token = await transparentLink(a, model.id, ['info', 'layers']);
    expect((await detail(token)).body.transparentBackground).toBe(true);

    const lower = await plainPlan();
    await h.db.tenantSubscription.update({ where: { tenantId: a.tenant.id }, data: { planId: lower.id } });
    const d = await detail(token);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({
      transparentBackground: false,
      transparentFallback: true,
      // The tenant's normal background: its colour.
      settings: ['info', 'layers', 'background_color'],
    });
    const v = await lookup(d.body.url);
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({
      transparentBackground: false,
      transparentFallback: true,
      settings: ['info', 'layers', 'background_color'],
      branding: { backgroundColor: '#123456' },
    });
    // New transparent links are refused too.
    expect((await makeLink(a, { id: model.id, settings: [], transparentBackground: true })).status).toBe(403);

    // Back on a plan with the feature, the same link is transparent again.
    const higher = await transparentPlan();
    await h.db.tenantSubscription.update({ where: { tenantId: a.tenant.id }, data: { planId: higher.id } });
    expect((await detail(token)).body).toMatchObject({
      transparentBackground: true,
      transparentFallback: false,
    });
  });

  it('platform admins (no plan) may make transparent links', async () => {
    const admin = await platformAdmin(h);
    const model = await createModel(h);
    const token = await transparentLink(admin, model.id);
    expect((await detail(token)).body).toMatchObject({
      transparentBackground: true,
      transparentFallback: false,
    });
  });
});
