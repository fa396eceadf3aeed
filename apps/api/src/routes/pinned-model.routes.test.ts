import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { OfflineCopy, OFFLINE_VIEW_MAX_AGE_DAYS } from '@helix/shared/schemas/pinned-model';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan } from '@helix/server/testing/factories';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  glb,
  member,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';

let h: ModelHarness;

beforeAll(async () => {
  h = await createModelHarness();
});
afterAll(async () => {
  await h?.close();
});

const post = (caller: Caller, path: string, body: unknown, base = caller.base) =>
  request(h.app)
    .post(`${base}${path}`)
    .set(bearer(caller.token))
    .send(body as object);

const offlineView = (caller: Caller, body: Record<string, unknown>) =>
  post(caller, '/model/offline-view', body);

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** One view made offline, with its own key. */
const aView = (id: number, minutes = 5) => ({ id, key: randomUUID(), viewedAt: minutesAgo(minutes) });

async function recorded(filter: { modelId?: number; tenantId?: number }) {
  await h.flush();
  const sum = await h.db.modelViewDaily.aggregate({ where: filter, _sum: { count: true } });
  return sum._sum.count ?? 0;
}

/** A customer whose plan allows `viewLimit` views, refusing more when `validation` is on. */
async function limitedTenant(viewLimit: number, validation: boolean) {
  const plan = await createPlan(h.db, { viewLimit, permissions: CUSTOMER_PLAN_PERMISSIONS });
  const a = await customer(h, { plan });
  await h.db.branding.update({
    where: { tenantId: a.tenant.id },
    data: { additionalViewsValidation: validation },
  });
  return a;
}

describe('POST /model/offline-copy', () => {
  it('answers the copy a device keeps (file URL, viewer origin, features, branding) and counts no view', async () => {
    const a = await customer(h);
    const model = await createModel(h, { name: 'Heart' });
    const res = await post(a, '/model/offline-copy', { id: model.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const copy = OfflineCopy.parse(res.body);
    expect(copy).toMatchObject({
      id: model.id,
      name: 'Heart',
      urlModelName: model.urlModelName,
      version: model.version,
      viewerOrigin: 'http://viewer.test',
    });
    expect(copy.settings).not.toContain('center_model');
    const url = new URL(copy.fileUrl);
    const file = await request(h.app)
      .get(url.pathname + url.search)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect(Buffer.compare(file.body as Buffer, glb())).toBe(0);
    expect(await recorded({ modelId: model.id })).toBe(0);
  });

  it('refuses what opening the viewer refuses: no session, no Model.view, a model of other tenants, a lapsed plan', async () => {
    const a = await customer(h);
    const b = await customer(h);
    const forB = await createModel(h, { isPublic: false, restrictedTenants: [b.tenant.id] });
    const model = await createModel(h);
    expect((await request(h.app).post(`${a.base}/model/offline-copy`).send({ id: model.id })).status).toBe(
      401,
    );
    const nobody = await member(h, a.tenant, []);
    expect((await post(nobody, '/model/offline-copy', { id: model.id })).status).toBe(403);
    expect((await post(a, '/model/offline-copy', { id: forB.id })).status).toBe(404);
    expect((await post(a, '/model/offline-copy', { id: model.id }, b.base)).status).toBe(404);
    const lapsed = await customer(h, { status: 'deactivated' });
    // A lapsed plan grants no permissions, so the route's gate already refuses.
    expect((await post(lapsed, '/model/offline-copy', { id: model.id })).status).toBe(403);
  });
});

describe('POST /model/offline-view', () => {
  it('counts a view once per key, however often and however concurrently it is sent', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const view = aView(model.id);
    const first = await offlineView(a, view);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ counted: true, duplicate: false });
    const again = await offlineView(a, view);
    expect(again.body).toEqual({ counted: true, duplicate: true });
    expect(await recorded({ modelId: model.id, tenantId: a.tenant.id })).toBe(1);

    // A second view (another key) counts; sent ten times at once it still counts once.
    const second = aView(model.id);
    const burst = await Promise.all(Array.from({ length: 10 }, () => offlineView(a, second)));
    expect(burst.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(burst.every((r) => r.body.counted === true)).toBe(true);
    expect(await recorded({ modelId: model.id, tenantId: a.tenant.id })).toBe(2);
    expect(await h.db.offlineView.count({ where: { tenantId: a.tenant.id, outcome: 'counted' } })).toBe(2);
  });

  it('counts an offline view beside an online one of the same user (each is its own view)', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const ticketUrl = (await post(a, '/model/viewer-url', { id: model.id })).body.url as string;
    const params = Object.fromEntries(new URL(ticketUrl).searchParams.entries());
    expect((await request(h.app).get('/api/viewer/model').query(params)).status).toBe(200);
    expect((await offlineView(a, aView(model.id))).body.counted).toBe(true);
    expect(await recorded({ modelId: model.id, tenantId: a.tenant.id })).toBe(2);
  });

  it('honours the view limit: past it with additionalViewsValidation on, a view is refused once and for all', async () => {
    const a = await limitedTenant(2, true);
    const model = await createModel(h);
    expect((await offlineView(a, aView(model.id))).body.counted).toBe(true);
    expect((await offlineView(a, aView(model.id))).body.counted).toBe(true);
    const over = aView(model.id);
    const refused = await offlineView(a, over);
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ counted: false, duplicate: false });
    expect((await offlineView(a, over)).body).toEqual({ counted: false, duplicate: true });
    expect(await recorded({ tenantId: a.tenant.id })).toBe(2);

    // Online loads see the same count: the limit is shared.
    const url = (await post(a, '/model/viewer-url', { id: model.id })).body.url as string;
    const online = await request(h.app)
      .get('/api/viewer/model')
      .query(Object.fromEntries(new URL(url).searchParams));
    expect(online.status).toBe(429);
  });

  it('with additionalViewsValidation off, views past the limit are counted (as additional views)', async () => {
    const a = await limitedTenant(1, false);
    const model = await createModel(h);
    for (let i = 0; i < 3; i += 1) expect((await offlineView(a, aView(model.id))).body.counted).toBe(true);
    expect(await recorded({ tenantId: a.tenant.id })).toBe(3);
  });

  it('checks the session, the tenant, the permission and the model', async () => {
    const a = await customer(h);
    const b = await customer(h);
    const model = await createModel(h);
    const forB = await createModel(h, { isPublic: false, restrictedTenants: [b.tenant.id] });
    const anonymous = await request(h.app).post(`${a.base}/model/offline-view`).send(aView(model.id));
    expect(anonymous.status).toBe(401);
    // Another tenant's path, another tenant's restricted model, no Model.view, a missing model.
    expect((await post(b, '/model/offline-view', aView(model.id), a.base)).status).toBe(404);
    expect((await offlineView(a, aView(forB.id))).status).toBe(404);
    expect((await offlineView(await member(h, a.tenant, []), aView(model.id))).status).toBe(403);
    expect((await offlineView(a, aView(2_000_000_000))).status).toBe(404);
    const lapsed = await customer(h, { status: 'deactivated' });
    const view = aView(model.id);
    expect((await offlineView(lapsed, view)).status).toBe(403);
    expect(await h.db.offlineView.count({ where: { key: view.key } })).toBe(0);
    expect(await recorded({ modelId: forB.id })).toBe(0);
    expect(await recorded({ modelId: model.id })).toBe(0);
  });

  it('forgets keys once no resend of them could be accepted any more (older than the age limit and a day)', async () => {
    const a = await customer(h);
    const b = await customer(h);
    const model = await createModel(h);
    const day = 24 * 60 * 60 * 1000;
    const old = (tenantId: number, userId: number, ageDays: number) => ({
      key: randomUUID(),
      tenantId,
      userId,
      modelId: model.id,
      viewedAt: new Date(Date.now() - ageDays * day),
      createdAt: new Date(Date.now() - ageDays * day),
      outcome: 'counted',
    });
    const [stale, recent, otherTenant] = [
      old(a.tenant.id, a.user.id, OFFLINE_VIEW_MAX_AGE_DAYS + 2),
      old(a.tenant.id, a.user.id, OFFLINE_VIEW_MAX_AGE_DAYS - 1),
      old(b.tenant.id, b.user.id, OFFLINE_VIEW_MAX_AGE_DAYS + 2),
    ];
    await h.db.offlineView.createMany({ data: [stale, recent, otherTenant] });
    expect((await offlineView(a, aView(model.id))).status).toBe(200);
    const left = await h.db.offlineView.findMany({
      where: { key: { in: [stale.key, recent.key, otherTenant.key] } },
    });
    expect(left.map((r) => r.key).sort()).toEqual([recent.key, otherTenant.key].sort());
    // The kept one still answers a resend as already counted.
    const resend = { id: model.id, key: recent.key, viewedAt: recent.viewedAt.toISOString() };
    expect((await offlineView(a, resend)).body).toEqual({ counted: true, duplicate: true });
  });

  it('refuses a key already used for another user or model (409) and counts nothing', async () => {
    const a = await customer(h);
    const other = await member(h, a.tenant, ['User']);
    const model = await createModel(h);
    const second = await createModel(h);
    const view = aView(model.id);
    expect((await offlineView(a, view)).status).toBe(200);
    const reusedByOther = await offlineView(other, view);
    expect(reusedByOther.status).toBe(409);
    expect(reusedByOther.body.message).toBe(MSG.offlineViewKeyReused);
    expect((await offlineView(a, { ...view, id: second.id })).status).toBe(409);
    expect(await recorded({ tenantId: a.tenant.id })).toBe(1);
  });

  it('answers bad input with a 4xx, never a 500, and counts nothing', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const day = 24 * 60;
    const bad: unknown[] = [
      {},
      { id: model.id, key: randomUUID() },
      { id: model.id, viewedAt: minutesAgo(1) },
      { ...aView(model.id), key: 'short' },
      { ...aView(model.id), key: 'has spaces in it, not allowed' },
      { ...aView(model.id), key: 'x'.repeat(65) },
      { ...aView(model.id), viewedAt: 'yesterday' },
      { ...aView(model.id), viewedAt: 1_700_000_000_000 },
      { ...aView(model.id), viewedAt: minutesAgo(-60) },
      { ...aView(model.id), viewedAt: minutesAgo(OFFLINE_VIEW_MAX_AGE_DAYS * day + 60) },
      { ...aView(model.id), id: '1' },
      { ...aView(model.id), id: 0 },
      { ...aView(model.id), id: 2 ** 40 },
      { ...aView(model.id), extra: true },
      [],
      'text',
    ];
    for (const body of bad) {
      const res = await offlineView(a, body as Record<string, unknown>);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(res.body).toMatchObject({ statusCode: res.status, message: expect.any(String) });
    }
    const future = await offlineView(a, { ...aView(model.id), viewedAt: minutesAgo(-60) });
    expect(JSON.stringify(future.body)).toContain(MSG.offlineViewInFuture);
    const old = await offlineView(a, {
      ...aView(model.id),
      viewedAt: minutesAgo(OFFLINE_VIEW_MAX_AGE_DAYS * day + 60),
    });
    expect(JSON.stringify(old.body)).toContain(MSG.offlineViewTooOld(OFFLINE_VIEW_MAX_AGE_DAYS));
    // A view a week old (within the limit) and one a minute "in the future" (clock drift) still count.
    expect((await offlineView(a, { ...aView(model.id), viewedAt: minutesAgo(7 * day) })).body.counted).toBe(
      true,
    );
    expect((await offlineView(a, { ...aView(model.id), viewedAt: minutesAgo(-1) })).body.counted).toBe(true);
    expect(await recorded({ tenantId: a.tenant.id })).toBe(2);
  });
});
