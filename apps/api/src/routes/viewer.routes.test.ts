import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EMBED_FLAGS, MSG } from '@helix/shared';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan } from '@helix/server/testing/factories';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  glb,
  member,
  platformAdmin,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';
import { EmbedDetail } from '@helix/shared/schemas/model';
import { signViewerTicket } from '@helix/server/models/signing';
import { sha256 } from '@helix/server/tokens';

let h: ModelHarness;
let admin: Caller;

beforeAll(async () => {
  h = await createModelHarness();
  admin = await platformAdmin(h);
});
afterAll(async () => {
  await h?.close();
});

const VIEWER = 'http://viewer.test';

const post = (caller: Caller, path: string, body: object) =>
  request(h.app).post(`${caller.base}${path}`).set(bearer(caller.token)).send(body);

async function embedToken(caller: Caller, modelId: number, settings: string[] = ['info', 'zoom_controls']) {
  const res = await post(caller, '/model/embed', { id: modelId, settings });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

const detail = (token: unknown) => request(h.app).post('/api/model/embed/detail').send({ token });

/** A random id as old share and embed pages made one (served, but not honoured: any client can make one). */
const viewerId = () => randomBytes(16).toString('base64url');

/** Where a load comes from: another app (with TRUST_PROXY) and client address than h.app's 127.0.0.1. */
interface From {
  app?: Express;
  ip?: string;
}

/** A new viewer's token from the embed detail, as a page gets one; undefined when the link is refused. */
const mintedViewer = async (token: string, from: From = {}): Promise<string | undefined> => {
  const req = request(from.app ?? h.app)
    .post('/api/model/embed/detail')
    .send({ token });
  const res = await (from.ip ? req.set('X-Forwarded-For', from.ip) : req);
  return res.status === 200 ? (res.body.viewer as string) : undefined;
};

const viewerToken = async (token: string, from: From = {}): Promise<string> => {
  const viewer = await mintedViewer(token, from);
  expect(viewer).toBeDefined();
  return viewer!;
};

/**
 * One viewer load; in embedding mode each from a new viewer (a viewer token minted by the embed detail,
 * so each counts) unless the query names one (`viewer`).
 */
const load = async (query: Record<string, string>, origin = VIEWER, from: From = {}) => {
  const viewer =
    query.viewer ??
    (query.currentmode === 'embedding' ? await mintedViewer(query.subscription!, from) : undefined);
  const req = request(from.app ?? h.app)
    .get('/api/viewer/model')
    .query({ ...query, ...(viewer ? { viewer } : {}) })
    .set('Origin', origin);
  return from.ip ? req.set('X-Forwarded-For', from.ip) : req;
};

/** The viewer's query parameters from a viewer URL the API answered. */
const allParamsOf = (url: string) => Object.fromEntries(new URL(url).searchParams.entries());

/** The same without the page load's viewer token (`load` gets one per load). */
const paramsOf = (url: string) => {
  const { viewer: _viewer, ...params } = allParamsOf(url);
  return params;
};

async function recorded(filter: { modelId?: number; tenantId?: number } = {}) {
  await h.flush();
  const sum = await h.db.modelViewDaily.aggregate({ where: filter, _sum: { count: true } });
  return sum._sum.count ?? 0;
}

describe('POST /api/model/embed/detail', () => {
  it('answers the camel-cased detail with the embedding viewer URL', async () => {
    const a = await customer(h);
    await h.db.branding.update({ where: { tenantId: a.tenant.id }, data: { primaryColor: '#112233' } });
    const model = await createModel(h, { name: 'Neuron' });
    const token = await embedToken(a, model.id, ['info', 'labels_ui']);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await detail(token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      error: null,
      user: { name: a.user.name },
      modelId: model.id,
      modelName: 'Neuron',
      settings: ['info', 'labels_ui'],
      branding: {
        primaryColor: '#112233',
        textColor: '#ffffff',
        backgroundColor: '#ffffff',
        tenant: a.tenant.domainPrefix,
      },
    });
    // Exactly the shared answer schema the pages parse with.
    expect(EmbedDetail.parse(res.body)).toEqual(res.body);
    const url = new URL(res.body.url);
    expect(url.origin).toBe(VIEWER);
    expect(allParamsOf(res.body.url)).toEqual({
      model: model.urlModelName,
      subscription: token,
      currentmode: 'embedding',
      version: '1',
      viewer: res.body.viewer,
    });
  });

  it('stores only the sha256 of the token, which still opens the detail, the viewer and the pages', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const token = await embedToken(a, model.id, ['info']);
    const rows = await h.db.$queryRaw<unknown[]>`SELECT * FROM "EmbedToken" WHERE "modelId" = ${model.id}`;
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]).toMatchObject({ tokenHash: sha256(token) });
    const res = await detail(token);
    expect(res.status).toBe(200);
    expect((await load(paramsOf(res.body.url))).status).toBe(200);
    expect(await recorded({ modelId: model.id })).toBe(1);
    await request(h.app).get(`/embed/${token}`);
    await request(h.app).get(`/share/${token}`);
    const lines = h.logs.lines.filter((l) => /"url":"\/(embed|share)\//.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(h.logs.text).not.toContain(token);
  });

  it('answers 404 { success: false } for malformed, unknown and revoked tokens', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const token = await embedToken(a, model.id);
    await h.db.embedToken.update({ where: { tokenHash: sha256(token) }, data: { revokedAt: new Date() } });
    for (const bad of [
      token,
      'x',
      'A'.repeat(43),
      `${token.slice(0, 42)}!`,
      '../../etc/passwd',
      "' OR 1=1 --",
    ]) {
      const res = await detail(bad);
      expect(res.status, bad).toBe(404);
      expect(res.body).toEqual({
        success: false,
        statusCode: 404,
        error: 'Not Found',
        code: 'NOT_FOUND',
        message: MSG.embedLinkInvalid,
      });
    }
    for (const body of [
      {},
      { token: 5 },
      { token: null },
      { token: ['a'] },
      { token: 'x'.repeat(300) },
      { token: 'x', extra: 1 },
    ]) {
      const res = await request(h.app).post('/api/model/embed/detail').send(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, statusCode: 400 });
    }
  });

  it('answers 404 once the model is deleted or no longer visible to the tenant, or the plan is not active', async () => {
    const a = await customer(h);
    const deleted = await createModel(h);
    const restricted = await createModel(h, { isPublic: false, restrictedTenants: [a.tenant.id] });
    const plain = await createModel(h);
    const t1 = await embedToken(a, deleted.id);
    const t2 = await embedToken(a, restricted.id);
    const t3 = await embedToken(a, plain.id);
    expect((await detail(t2)).status).toBe(200);

    await h.db.model.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    await h.db.modelTenantAccess.deleteMany({ where: { modelId: restricted.id } });
    expect((await detail(t1)).status).toBe(404);
    expect((await detail(t2)).status).toBe(404);
    expect((await detail(t3)).status).toBe(200);

    for (const change of [{ status: 'deactivated' as const }, { status: 'none' as const }]) {
      await h.db.tenantSubscription.update({ where: { tenantId: a.tenant.id }, data: change });
      const res = await detail(t3);
      expect(res.status, JSON.stringify(change)).toBe(404);
      expect(res.body.success).toBe(false);
    }
    // Payment failed: embeds keep working (with the banner in the portal) while Stripe retries.
    for (const change of [
      { status: 'past_due' as const, activePayment: false },
      { status: 'active' as const, activePayment: false },
    ]) {
      await h.db.tenantSubscription.update({ where: { tenantId: a.tenant.id }, data: change });
      expect((await detail(t3)).status, JSON.stringify(change)).toBe(200);
    }
    const day = 86_400_000;
    await h.db.tenantSubscription.update({
      where: { tenantId: a.tenant.id },
      data: { status: 'trialing', trialEnd: new Date(Date.now() - day) },
    });
    expect((await detail(t3)).status).toBe(404);
    await h.db.tenantSubscription.update({
      where: { tenantId: a.tenant.id },
      data: { status: 'canceled', activePayment: true, cancelAt: new Date(Date.now() + day) },
    });
    expect((await detail(t3)).status).toBe(200);
    await h.db.tenantSubscription.update({
      where: { tenantId: a.tenant.id },
      data: { cancelAt: new Date(Date.now() - day) },
    });
    expect((await detail(t3)).status).toBe(404);
    await h.db.tenantSubscription.update({
      where: { tenantId: a.tenant.id },
      data: { status: 'trialing', trialEnd: new Date(Date.now() + day) },
    });
    expect((await detail(t3)).status).toBe(200);
  });
});

describe('GET /api/viewer/model', () => {
  it('standard mode: the viewer-url ticket loads the model once, with CORS for the viewer origin only', async () => {
    const a = await customer(h);
    await h.db.branding.update({
      where: { tenantId: a.tenant.id },
      data: { backgroundColor: '#000000', modelBgLogo: 'images/background-abc123456.webp' },
    });
    const model = await createModel(h, { name: 'Cell' });
    const urlRes = await post(a, '/model/viewer-url', { id: model.id });
    expect(urlRes.status).toBe(200);
    const params = paramsOf(urlRes.body.url);
    expect(urlRes.body.url.startsWith(`${VIEWER}/?`)).toBe(true);
    expect(params).toMatchObject({ model: model.urlModelName, currentmode: 'standard', version: '1' });

    const res = await load(params);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(VIEWER);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      name: 'Cell',
      glbUrl: expect.stringMatching(
        new RegExp(`^http://portal.test/api/files/models/${model.id}\\?v=1&exp=\\d+&sig=`),
      ),
      settings: EMBED_FLAGS.filter((f) => f !== 'center_model'),
      branding: {
        backgroundColor: '#000000',
        primaryColor: '#5f51fb',
        modelBgLogo: 'http://portal.test/api/files/images/background-abc123456.webp',
        modelLoadingLogo: null,
      },
      transparentBackground: false,
      transparentFallback: false,
      record: false,
    });
    const other = await load(params, 'http://evil.test');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(await recorded({ modelId: model.id })).toBe(1); // one user, one view in the window
    const row = await h.db.modelViewDaily.findFirstOrThrow({ where: { modelId: model.id } });
    expect(row).toMatchObject({
      tenantId: a.tenant.id,
      viewerKey: `u:${a.user.id}`,
      userId: a.user.id,
      source: 'portal',
    });

    // The signed file URL serves the .glb to the viewer origin.
    const glbUrl = new URL(res.body.glbUrl);
    const file = await request(h.app)
      .get(`${glbUrl.pathname}${glbUrl.search}`)
      .set('Origin', VIEWER)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('model/gltf-binary');
    expect(file.headers['access-control-allow-origin']).toBe(VIEWER);
    expect(Buffer.compare(file.body as Buffer, glb())).toBe(0);
    const forged = glbUrl.search.replace(/sig=[^&]+/, `sig=${'A'.repeat(43)}`);
    expect((await request(h.app).get(`${glbUrl.pathname}${forged}`)).status).toBe(403);
    expect((await request(h.app).get(glbUrl.pathname)).status).toBe(403);
    const expired = glbUrl.search.replace(/exp=\d+/, 'exp=1000');
    expect((await request(h.app).get(`${glbUrl.pathname}${expired}`)).status).toBe(403);
  });

  it('refuses bad tickets (403), other models (404) and tenants without an active plan (403)', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const other = await createModel(h);
    const params = paramsOf((await post(a, '/model/viewer-url', { id: model.id })).body.url);
    const tampered = `${params.subscription!.slice(0, -2)}AA`;
    const forged = signViewerTicket('another-secret-that-is-long-enough-32', {
      tenantId: a.tenant.id,
      userId: a.user.id,
      modelId: model.id,
    });
    const expired = signViewerTicket(
      h.config.SIGNING_SECRET,
      { tenantId: a.tenant.id, userId: a.user.id, modelId: model.id },
      -1,
    );
    for (const subscription of [tampered, forged, expired, 'nonsense', 'v1.x.y']) {
      const res = await load({ ...params, subscription });
      expect(res.status, subscription).toBe(403);
      expect(res.body).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        code: 'FORBIDDEN',
        message: MSG.viewerLinkInvalid,
      });
    }
    // A ticket is for one model.
    expect((await load({ ...params, model: other.urlModelName })).status).toBe(404);
    // A model restricted away from the tenant after the ticket was made.
    await h.db.model.update({ where: { id: model.id }, data: { isPublic: false } });
    expect((await load(params)).status).toBe(404);
    await h.db.model.update({ where: { id: model.id }, data: { isPublic: true } });
    await h.db.tenantSubscription.update({
      where: { tenantId: a.tenant.id },
      data: { status: 'deactivated' },
    });
    const noPlan = await load(params);
    expect(noPlan.status).toBe(403);
    expect(noPlan.body.message).toBe(MSG.planNotActive);
    expect(await recorded({ modelId: model.id })).toBe(0);
  });

  it('embedding mode: the embed token counts for its tenant, with its settings', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const token = await embedToken(a, model.id, ['info']);
    const params = paramsOf((await detail(token)).body.url);
    const res = await load(params);
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual(['info']);
    expect(await recorded({ modelId: model.id })).toBe(1);
    const embed = await h.db.embedToken.findUniqueOrThrow({ where: { tokenHash: sha256(token) } });
    expect(await h.db.modelViewDaily.findFirstOrThrow({ where: { modelId: model.id } })).toMatchObject({
      tenantId: a.tenant.id,
      viewerKey: `e:${embed.id}`,
      embedTokenId: embed.id,
      userId: a.user.id, // attributed to the link's maker
      source: 'embed',
    });
    expect((await load({ ...params, model: 'some-other-model' })).status).toBe(404);
    expect((await load({ ...params, subscription: 'B'.repeat(43) })).status).toBe(403);
    await h.db.embedToken.update({ where: { tokenHash: sha256(token) }, data: { revokedAt: new Date() } });
    expect((await load(params)).status).toBe(403);
  });

  it('refuses bad queries with 400 and never answers 500', async () => {
    for (const query of [
      {},
      { model: 'x' },
      { model: 'x', subscription: 'y', currentmode: 'other' },
      { model: 'x', subscription: 'y', currentmode: 'standard', extra: '1' },
      { model: 'x'.repeat(300), subscription: 'y', currentmode: 'standard' },
    ]) {
      const res = await load(query as Record<string, string>);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.statusCode).toBe(400);
    }
    const arrays = await request(h.app).get(
      '/api/viewer/model?model=a&model=b&subscription=x&currentmode=standard',
    );
    expect(arrays.status).toBe(400);
    for (const name of ['nope.png', '..%2F..%2Fetc%2Fpasswd', 'thumbnail-x.svg', 'thumbnail-abc.webp']) {
      expect((await request(h.app).get(`/api/files/images/${name}`)).status, name).toBe(404);
    }
    expect((await request(h.app).get('/api/files/models/abc?exp=1&sig=x')).status).toBe(400);
  });
});

describe('views and limits', () => {
  async function limitedTenant(viewLimit: number, validation: boolean, additionalViews = 0) {
    const plan = await createPlan(h.db, {
      modelEmbed: true,
      viewLimit,
      additionalViewsPrice: 500,
      permissions: CUSTOMER_PLAN_PERMISSIONS,
    });
    const a = await customer(h, { plan });
    await h.db.branding.update({
      where: { tenantId: a.tenant.id },
      data: { additionalViewsValidation: validation },
    });
    if (additionalViews) {
      await h.db.tenantSubscription.update({ where: { tenantId: a.tenant.id }, data: { additionalViews } });
    }
    const model = await createModel(h);
    const token = await embedToken(a, model.id);
    return { a, model, params: paramsOf((await detail(token)).body.url) };
  }

  it('with additionalViewsValidation on, loads past viewLimit + additional views + the grace band get 429', async () => {
    const { a, model, params } = await limitedTenant(3, true, 1);
    // 3 + 1 purchased + a grace band of 10% of 3 (rounded up: 1) = 5 served.
    for (let i = 0; i < 5; i += 1) expect((await load(params)).status).toBe(200);
    const refused = await load(params);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'TOO_MANY_REQUESTS',
      message: MSG.viewLimitReached,
    });
    expect(await recorded({ modelId: model.id })).toBe(5);
    const list = await request(h.app).get(`${a.base}/model/all`).set(bearer(a.token));
    expect(list.body.views).toMatchObject({
      viewCount: 5,
      viewLimit: 3,
      additionalViews: 1,
      additionalViewsUsed: 2,
      graceViews: 1,
      refuseAt: 5,
      additionalViewsPrice: 500,
      additionalViewsValidation: true,
    });
  });

  it('with it off, loads past the limit are served and reported as additional views used (no lag)', async () => {
    const { a, model, params } = await limitedTenant(3, false);
    for (let i = 0; i < 5; i += 1) expect((await load(params)).status).toBe(200);
    // Not flushed yet: the answer adds the counts buffered in Redis.
    const list = await request(h.app).get(`${a.base}/model/all`).set(bearer(a.token));
    expect(list.body.views).toMatchObject({ viewCount: 5, viewLimit: 3, additionalViewsUsed: 2 });
    expect(list.body.models.find((m: { id: number }) => m.id === model.id).viewCount).toBe(5);
    expect(await recorded({ modelId: model.id })).toBe(5);
    const after = await request(h.app).get(`${a.base}/model/all`).set(bearer(a.token));
    expect(after.body.views.viewCount).toBe(5);
  });

  it('starts the period count from PostgreSQL when Redis has none', async () => {
    const { a, model, params } = await limitedTenant(3, true);
    await h.db.modelViewDaily.create({
      data: {
        modelId: model.id,
        tenantId: a.tenant.id,
        day: new Date(new Date().toISOString().slice(0, 10)),
        viewerKey: 'u:999999',
        source: 'portal',
        count: 2,
      },
    });
    // 2 stored + 1 = the limit (3), + 1 = the grace band (1 of 3), then refused.
    expect((await load(params)).status).toBe(200);
    expect((await load(params)).status).toBe(200);
    expect((await load(params)).status).toBe(429);
  });

  /** Viewer i at an address of its own (200 viewers at one address would meet the ceiling first). */
  let proxied: Express | undefined;
  const apart = (i: number): From => {
    proxied ??= h.appWith({ TRUST_PROXY: 'true' });
    return { app: proxied, ip: `10.20.${i >> 8}.${i & 255}` };
  };

  /**
   * Viewer i's load as its reader would make it: a 503 (the pool or Redis busier than its fail-fast
   * wait, which a loaded test machine reaches with 200 loads at once in one process) is answered by
   * "Try again", up to 5 times. A load refused that way must not have counted.
   */
  const loadApart = async (params: Record<string, string>, i: number) => {
    for (let attempt = 1; ; attempt += 1) {
      const res = await load(params, VIEWER, apart(i));
      if (res.status !== 503 || attempt === 5) return res;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  };

  it('200 concurrent loads are 200 views after the flush', async () => {
    const { model, params } = await limitedTenant(0, true);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => loadApart(params, i)));
    const statuses: Record<number, number> = {};
    for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    expect(statuses, JSON.stringify(results.find((r) => r.status !== 200)?.body)).toEqual({ 200: 200 });
    expect(await recorded({ modelId: model.id })).toBe(200);
  });

  it('200 concurrent loads against a limit of 150 (+ a grace band of 15): exactly 165 served and recorded', async () => {
    const { model, params } = await limitedTenant(150, true);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => loadApart(params, i)));
    const statuses: Record<number, number> = {};
    for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    expect(statuses).toEqual({ 200: 165, 429: 35 });
    expect(await recorded({ modelId: model.id })).toBe(165);
  });

  it('statistics: platform admins get top tenants and views per day; users get their models', async () => {
    const a = await customer(h, { name: 'Alpha Tenant' });
    const b = await customer(h, { name: 'Beta Tenant' });
    const model = await createModel(h, { name: 'Stats model' });
    const pa = paramsOf((await post(a, '/model/viewer-url', { id: model.id })).body.url);
    const pb = paramsOf((await detail(await embedToken(b, model.id))).body.url);
    // The portal user's three loads are one view (one viewer); three share-page viewers are three.
    for (let i = 0; i < 3; i += 1) await load(pa);
    for (let i = 0; i < 3; i += 1) await load(pb);
    const list = await request(h.app)
      .get(`${admin.base}/model/all?search=Stats%20model&users=true&stats=true`)
      .set(bearer(admin.token));
    const stats = list.body.models[0];
    expect(stats.viewCount).toBe(4);
    expect(stats.topTenants).toEqual([
      { tenant_id: b.tenant.id, tenant_name: 'Beta Tenant', tenant_views: 3 },
      { tenant_id: a.tenant.id, tenant_name: 'Alpha Tenant', tenant_views: 1 },
    ]);
    expect(stats.viewsByDay).toHaveLength(30);
    expect(stats.viewsByDay[29]).toEqual({ day: new Date().toISOString().slice(0, 10), views: 4 });
    const users = list.body.users as {
      id: number;
      models: { medicalModelId: number; viewCount: number }[];
    }[];
    expect(users.find((u) => u.id === a.user.id)?.models).toEqual([
      { medicalModelId: model.id, modelName: 'Stats model', viewCount: 1 },
    ]);
    expect(users.find((u) => u.id === b.user.id)?.models).toEqual([
      { medicalModelId: model.id, modelName: 'Stats model', viewCount: 3 },
    ]);
    // A tenant sees its own views only.
    const mine = await request(h.app).get(`${b.base}/model/all`).set(bearer(b.token));
    expect(mine.body.models.find((m: { id: number }) => m.id === model.id).viewCount).toBe(3);
    expect(mine.body.models[0].topTenants).toBeUndefined();
    const other = await member(h, b.tenant, ['User']);
    expect(
      (await request(h.app).get(`${b.base}/model/all?users=true`).set(bearer(other.token))).body.users,
    ).toEqual([]);
  });
});

describe('abuse of public links', () => {
  it("counts a viewer's reloads once per model in the window: by viewer token, else by address", async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const token = await embedToken(a, model.id);
    const params = paramsOf((await detail(token)).body.url);
    const me = await viewerToken(token);
    for (let i = 0; i < 5; i += 1) expect((await load({ ...params, viewer: me })).status).toBe(200);
    expect((await load(params)).status).toBe(200); // another viewer token: another viewer
    // A page that sends no viewer token, or ids of its own making: one viewer per client address.
    const anonymous = () => request(h.app).get('/api/viewer/model').query(params).set('Origin', VIEWER);
    for (let i = 0; i < 3; i += 1) expect((await anonymous()).status).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await load({ ...params, viewer: viewerId() })).status).toBe(200);
    expect(await recorded({ modelId: model.id })).toBe(3);
    // The portal user is one viewer too, whatever the frame says.
    const portal = paramsOf((await post(a, '/model/viewer-url', { id: model.id })).body.url);
    for (let i = 0; i < 3; i += 1) expect((await load(portal)).status).toBe(200);
    expect(await recorded({ modelId: model.id })).toBe(4);
  });

  it('refuses a malformed viewer token with 400', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const params = paramsOf((await detail(await embedToken(a, model.id))).body.url);
    for (const viewer of ['short', 'x'.repeat(401), 'has space in it!!', '../../../etc/passwd']) {
      expect((await load({ ...params, viewer })).status, viewer).toBe(400);
    }
  });

  it('limits loads per link across addresses (EMBED_TOKEN_RATE_LIMIT_MAX), beside the per-address limit', async () => {
    const limited = h.appWith({ EMBED_TOKEN_RATE_LIMIT_MAX: '3', TRUST_PROXY: 'true' });
    const a = await customer(h);
    const model = await createModel(h);
    const token = await embedToken(a, model.id);
    const other = await embedToken(a, model.id);
    const params = paramsOf((await detail(token)).body.url);
    const from = (ip: number) =>
      request(limited)
        .get('/api/viewer/model')
        .query({ ...params, viewer: viewerId() })
        .set('Origin', VIEWER)
        .set('X-Forwarded-For', `203.0.113.${ip}`);
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await from(i)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // The detail call has its own per-link counter; another link is not affected.
    const details = [];
    for (let i = 0; i < 4; i += 1) {
      details.push((await request(limited).post('/api/model/embed/detail').send({ token })).status);
    }
    expect(details).toEqual([200, 200, 429, 429]); // the detail call above was the link's first
    expect((await request(limited).post('/api/model/embed/detail').send({ token: other })).status).toBe(200);
    expect(await recorded({ modelId: model.id })).toBe(3);
  });

  it('limits loads per client address (EMBED_RATE_LIMIT_MAX); another address has its own count', async () => {
    const limited = h.appWith({ EMBED_RATE_LIMIT_MAX: '2', TRUST_PROXY: 'true' });
    const a = await customer(h);
    const model = await createModel(h);
    const params = paramsOf((await detail(await embedToken(a, model.id))).body.url);
    const from = (ip: string) =>
      request(limited)
        .get('/api/viewer/model')
        .query({ ...params, viewer: viewerId() })
        .set('Origin', VIEWER)
        .set('X-Forwarded-For', ip);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await from('198.51.100.77')).status);
    expect(statuses).toEqual([200, 200, 429]);
    const refused = await from('198.51.100.77');
    expect(refused.body).toMatchObject({ statusCode: 429 });
    // Another address has its own count.
    expect((await from('198.51.100.78')).status).toBe(200);
  });
});

describe('the embed access cache (EMBED_ACCESS_CACHE_MS)', () => {
  const TTL = 1_000;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('serves a token from memory for at most the configured time, then sees revocation, deletion and plan changes', async () => {
    const cached = h.appWith({ EMBED_ACCESS_CACHE_MS: String(TTL) });
    const cachedDetail = (token: string) => request(cached).post('/api/model/embed/detail').send({ token });
    const cachedLoad = (query: Record<string, string>) =>
      request(cached).get('/api/viewer/model').query(query).set('Origin', VIEWER);

    const a = await customer(h);
    const b = await customer(h);
    const revoked = await createModel(h);
    const deleted = await createModel(h);
    const lapsed = await createModel(h);
    const t1 = await embedToken(a, revoked.id);
    const t2 = await embedToken(a, deleted.id);
    const t3 = await embedToken(b, lapsed.id);
    const loadedAt = Date.now();
    const params = await Promise.all(
      [t1, t2, t3].map(async (t) => paramsOf((await cachedDetail(t)).body.url)),
    );

    const changedAt = Date.now();
    await h.db.embedToken.update({ where: { tokenHash: sha256(t1) }, data: { revokedAt: new Date() } });
    await h.db.model.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    await h.db.tenantSubscription.update({
      where: { tenantId: b.tenant.id },
      data: { status: 'deactivated' },
    });

    // Within the time: still answered from memory (the uncached app sees the change at once).
    if (Date.now() - loadedAt < TTL / 2) {
      for (const t of [t1, t2, t3]) expect((await cachedDetail(t)).status).toBe(200);
      expect((await cachedLoad(params[0]!)).status).toBe(200);
    }
    for (const t of [t1, t2, t3]) expect((await detail(t)).status).toBe(404);

    await sleep(TTL + 50 - (Date.now() - changedAt));
    for (const t of [t1, t2, t3]) expect((await cachedDetail(t)).status).toBe(404);
    expect((await cachedLoad(params[0]!)).status).toBe(403);
    expect((await cachedLoad(params[1]!)).status).toBe(404);
    expect((await cachedLoad(params[2]!)).body.message).toBe(MSG.planNotActive);
  });

  it('still counts exactly one view per viewer load, and one query serves concurrent loads of a token', async () => {
    const cached = h.appWith({ EMBED_ACCESS_CACHE_MS: String(TTL) });
    const a = await customer(h);
    const model = await createModel(h);
    const token = await embedToken(a, model.id);
    const params = paramsOf((await detail(token)).body.url);
    // Thirty viewers' tokens first (the detail calls would read the token too).
    const viewers = await Promise.all(Array.from({ length: 30 }, () => viewerToken(token)));
    const queryRaw = vi.spyOn(h.db, '$queryRaw');
    try {
      const results = await Promise.all(
        viewers.map((viewer) =>
          request(cached)
            .get('/api/viewer/model')
            .query({ ...params, viewer })
            .set('Origin', VIEWER),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(30).fill(200));
      expect(queryRaw).toHaveBeenCalledTimes(1);
    } finally {
      queryRaw.mockRestore();
    }
    expect(await recorded({ modelId: model.id })).toBe(30);
  });
});
