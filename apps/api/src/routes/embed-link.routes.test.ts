import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { EmbedLinkList, EmbedLinkView } from '@helix/shared/schemas/embed-link';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
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

const VIEWER = 'http://viewer.test';
const get = (caller: Caller, path: string) =>
  request(h.app).get(`${caller.base}${path}`).set(bearer(caller.token));
const post = (caller: Caller, path: string, body: object) =>
  request(h.app).post(`${caller.base}${path}`).set(bearer(caller.token)).send(body);

async function makeLink(caller: Caller, modelId: number, extra: object = {}) {
  const res = await post(caller, '/model/embed', { id: modelId, settings: ['info'], ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

const params = (url: string) => Object.fromEntries(new URL(url).searchParams.entries());
/**
 * A load by a new viewer: a viewer token from the embed detail (asked of h.app, so a cached `app` is
 * not touched; a link that has stopped keeps the query's own).
 */
const viewerLoad = async (app: typeof h.app, query: Record<string, string>) => {
  const minted = await request(h.app).post('/api/model/embed/detail').send({ token: query.subscription });
  const viewer = minted.status === 200 ? (minted.body.viewer as string) : query.viewer;
  return request(app)
    .get('/api/viewer/model')
    .query({ ...query, ...(viewer ? { viewer } : {}) })
    .set('Origin', VIEWER);
};

async function links(caller: Caller) {
  const res = await get(caller, '/model/links');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return EmbedLinkList.parse(res.body).links; // the answer is exactly the shared schema
}

describe('GET /model/links', () => {
  it("lists the tenant's links (owner: all, others: their own) with model, settings, maker, dates and views", async () => {
    const a = await customer(h);
    const b = await customer(h);
    const uma = await member(h, a.tenant, ['User']);
    const model = await createModel(h, { name: 'Links heart' });
    const ownerToken = await makeLink(a, model.id);
    await makeLink(uma, model.id);
    await makeLink(b, model.id);

    const detail = await request(h.app).post('/api/model/embed/detail').send({ token: ownerToken });
    const query = params(detail.body.url);
    for (let i = 0; i < 3; i += 1) expect((await viewerLoad(h.app, query)).status).toBe(200);
    await h.flush();
    expect((await viewerLoad(h.app, query)).status).toBe(200); // still in Redis: counted anyway

    const owner = await links(a);
    expect(owner).toHaveLength(2);
    expect(owner.map((l) => l.createdBy.name).sort()).toEqual([a.user.name, uma.user.name].sort());
    const mine = owner.find((l) => l.createdBy.id === a.user.id)!;
    expect(mine).toMatchObject({
      model: { id: model.id, name: 'Links heart' },
      settings: ['info'],
      status: 'active',
      expiresAt: null,
      revokedAt: null,
      views: 4,
    });
    // The maker's token comes back (derived from a kept seed); its hash and seed never leave the API.
    expect(mine.token).toBe(ownerToken);
    expect(mine.kind).toBeNull(); // made without saying for which page
    const stored = await h.db.embedToken.findFirstOrThrow({ where: { id: mine.id } });
    expect(JSON.stringify(owner)).not.toContain(stored.tokenHash);
    expect(JSON.stringify(owner)).not.toContain(stored.tokenSeed!);
    // A user who is not the owner sees the links they made; another tenant sees none of these.
    expect((await links(uma)).map((l) => l.createdBy.id)).toEqual([uma.user.id]);
    expect((await links(b)).map((l) => l.createdBy.id)).toEqual([b.user.id]);
  });

  it('records the page a link was made for; a link made before seeds were kept has no token', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const shareToken = await makeLink(a, model.id, { kind: 'share' });
    const embedToken = await makeLink(a, model.id, { kind: 'embed' });
    expect((await post(a, '/model/embed', { id: model.id, settings: [], kind: 'page' })).status).toBe(400);
    const old = await h.db.embedToken.create({
      data: {
        tokenHash: 'f'.repeat(64),
        modelId: model.id,
        tenantId: a.tenant.id,
        createdById: a.user.id,
        settings: ['info'],
      },
    });
    const byId = new Map((await links(a)).map((l) => [l.token ?? `old-${l.id}`, l]));
    expect(byId.get(shareToken)).toMatchObject({ kind: 'share' });
    expect(byId.get(embedToken)).toMatchObject({ kind: 'embed' });
    expect(byId.get(`old-${old.id}`)).toMatchObject({ kind: null, token: null });
    // A revoked link's token is not shown again.
    const revoked = await post(a, '/model/links/revoke', { id: byId.get(shareToken)!.id });
    expect(revoked.body).toMatchObject({ status: 'revoked', token: null, kind: 'share' });
  });

  it('needs Model.embed (403) and refuses unknown parameters (400)', async () => {
    const a = await customer(h);
    const nobody = await member(h, a.tenant, []);
    expect((await get(nobody, '/model/links')).status).toBe(403);
    expect((await post(nobody, '/model/links/revoke', { id: 1 })).status).toBe(403);
    expect((await get(a, '/model/links?x=1')).status).toBe(400);
  });
});

describe('POST /model/links/revoke', () => {
  it("revokes the tenant's own link; another tenant's or a missing id is 404; bad input is 400", async () => {
    const a = await customer(h);
    const b = await customer(h);
    const model = await createModel(h);
    const token = await makeLink(a, model.id);
    const [link] = await links(a);
    const query = params((await request(h.app).post('/api/model/embed/detail').send({ token })).body.url);

    expect((await post(b, '/model/links/revoke', { id: link!.id })).status).toBe(404);
    expect((await post(a, '/model/links/revoke', { id: 2_000_000_000 })).status).toBe(404);
    for (const body of [{}, { id: 'x' }, { id: 0 }, { id: link!.id, extra: 1 }]) {
      expect((await post(a, '/model/links/revoke', body)).status, JSON.stringify(body)).toBe(400);
    }
    // Another tenant's attempt changed nothing.
    expect((await viewerLoad(h.app, query)).status).toBe(200);

    const res = await post(a, '/model/links/revoke', { id: link!.id });
    expect(res.status).toBe(200);
    expect(EmbedLinkView.parse(res.body)).toMatchObject({ id: link!.id, status: 'revoked', views: 1 });
    const again = await post(a, '/model/links/revoke', { id: link!.id });
    expect(again.body.revokedAt).toBe(res.body.revokedAt);

    const refused = await request(h.app).post('/api/model/embed/detail').send({ token });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(MSG.embedLinkInvalid);
    expect((await viewerLoad(h.app, query)).status).toBe(403);
  });

  it('a non-owner cannot revoke the owner link (404)', async () => {
    const a = await customer(h);
    const uma = await member(h, a.tenant, ['User']);
    const model = await createModel(h);
    await makeLink(a, model.id);
    const [link] = await links(a);
    expect((await post(uma, '/model/links/revoke', { id: link!.id })).status).toBe(404);
  });

  it('with the access cache on (3 s), a revoked link stops within 3 s', async () => {
    const cached = h.appWith({ EMBED_ACCESS_CACHE_MS: '3000' });
    const a = await customer(h);
    const model = await createModel(h);
    const token = await makeLink(a, model.id);
    const detail = () => request(cached).post('/api/model/embed/detail').send({ token });
    const query = params((await detail()).body.url);
    expect((await viewerLoad(cached, query)).status).toBe(200);
    const [link] = await links(a);
    const revokedAt = Date.now();
    expect((await post(a, '/model/links/revoke', { id: link!.id })).status).toBe(200);
    // Every answer cached before the revoke has expired 3 s after it: a request sent then is refused.
    // (Asked at that moment rather than timed in a polling loop, whose own delays on a loaded machine
    // would be counted against the cache.)
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, revokedAt + 3_000 - Date.now())));
    const [d, v] = await Promise.all([detail(), viewerLoad(cached, query)]);
    expect(d.status).toBe(404);
    expect(v.status).toBe(403);
  });
});

describe('link expiry', () => {
  it('takes an optional expiry in the future; a past or malformed one is a 400', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const past = await post(a, '/model/embed', {
      id: model.id,
      settings: [],
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual({ expiresAt: MSG.linkExpiryPast });
    expect(
      (await post(a, '/model/embed', { id: model.id, settings: [], expiresAt: 'tomorrow' })).status,
    ).toBe(400);
    const later = new Date(Date.now() + 24 * 3600_000).toISOString();
    await makeLink(a, model.id, { expiresAt: later });
    await makeLink(a, model.id, { expiresAt: null });
    const listed = await links(a);
    expect(listed.map((l) => l.expiresAt).sort()).toEqual([later, null].sort());
  });

  it('an expired link is refused by the embed path, even from the access cache', async () => {
    const cached = h.appWith({ EMBED_ACCESS_CACHE_MS: '10000' });
    const a = await customer(h);
    const model = await createModel(h);
    const token = await makeLink(a, model.id, { expiresAt: new Date(Date.now() + 1_500).toISOString() });
    const detail = () => request(cached).post('/api/model/embed/detail').send({ token });
    const first = await detail();
    expect(first.status).toBe(200);
    const query = params(first.body.url);
    expect((await viewerLoad(cached, query)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expect((await detail()).status).toBe(404);
    expect((await viewerLoad(cached, query)).status).toBe(403);
    expect((await links(a))[0]).toMatchObject({ status: 'expired' });
  });
});

describe('POST /model/links/expiry', () => {
  const postOn = (app: typeof h.app, caller: Caller, path: string, body: object) =>
    request(app).post(`${caller.base}${path}`).set(bearer(caller.token)).send(body);
  const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

  it('needs Model.embed; another tenant, a non-owner or a missing id is 404; a past date is a 400', async () => {
    const a = await customer(h);
    const b = await customer(h);
    const nobody = await member(h, a.tenant, []);
    const uma = await member(h, a.tenant, ['User']);
    const model = await createModel(h);
    await makeLink(a, model.id);
    const [link] = await links(a);
    const later = inMs(24 * 3600_000);

    expect((await post(nobody, '/model/links/expiry', { id: link!.id, expiresAt: later })).status).toBe(403);
    expect((await post(b, '/model/links/expiry', { id: link!.id, expiresAt: later })).status).toBe(404);
    expect((await post(uma, '/model/links/expiry', { id: link!.id, expiresAt: later })).status).toBe(404);
    expect((await post(a, '/model/links/expiry', { id: 2_000_000_000, expiresAt: later })).status).toBe(404);

    const past = await post(a, '/model/links/expiry', { id: link!.id, expiresAt: inMs(-60_000) });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(MSG.linkExpiryPast);
    expect(past.body.errors).toEqual({ expiresAt: MSG.linkExpiryPast });
    for (const body of [
      { id: link!.id },
      { id: link!.id, expiresAt: 'tomorrow' },
      { id: 'x', expiresAt: later },
      { id: link!.id, expiresAt: later, extra: 1 },
    ]) {
      expect((await post(a, '/model/links/expiry', body)).status, JSON.stringify(body)).toBe(400);
    }
    // None of that changed the link.
    expect((await links(a))[0]).toMatchObject({ id: link!.id, expiresAt: null, status: 'active' });
  });

  it('sets, clears and extends an expiry (an expired link opens again); a revoked link is a 409', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const token = await makeLink(a, model.id, { expiresAt: inMs(1_000) });
    const [link] = await links(a);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const detail = () => request(h.app).post('/api/model/embed/detail').send({ token });
    expect((await detail()).status).toBe(404);
    expect((await links(a))[0]).toMatchObject({ status: 'expired' });

    const later = inMs(24 * 3600_000);
    const set = await post(a, '/model/links/expiry', { id: link!.id, expiresAt: later });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(EmbedLinkView.parse(set.body)).toMatchObject({ id: link!.id, expiresAt: later, status: 'active' });
    expect((await detail()).status).toBe(200);

    const cleared = await post(a, '/model/links/expiry', { id: link!.id, expiresAt: null });
    expect(cleared.body).toMatchObject({ expiresAt: null, status: 'active' });
    expect((await links(a))[0]).toMatchObject({ expiresAt: null });

    await post(a, '/model/links/revoke', { id: link!.id });
    const refused = await post(a, '/model/links/expiry', { id: link!.id, expiresAt: later });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(MSG.linkRevokedUnchangeable);
    expect((await links(a))[0]).toMatchObject({ status: 'revoked', expiresAt: null });
  });

  it('with the access cache on (10 s), a cached link stops at its new expiry, and an extended one opens', async () => {
    const cached = h.appWith({ EMBED_ACCESS_CACHE_MS: '10000' });
    const a = await customer(h);
    const model = await createModel(h);
    const token = await makeLink(a, model.id);
    const [link] = await links(a);
    const detail = () => request(cached).post('/api/model/embed/detail').send({ token });
    const first = await detail();
    expect(first.status).toBe(200); // the record (no expiry) is now cached for 10 s
    const query = params(first.body.url);
    expect((await viewerLoad(cached, query)).status).toBe(200);

    const soon = await postOn(cached, a, '/model/links/expiry', { id: link!.id, expiresAt: inMs(1_500) });
    expect(soon.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    // Well inside the cache's 10 s: the new expiry holds, not the cached "never".
    expect((await detail()).status).toBe(404);
    expect((await viewerLoad(cached, query)).status).toBe(403);

    // And the other way: the expired record is cached; a later expiry opens the link at once.
    const back = await postOn(cached, a, '/model/links/expiry', { id: link!.id, expiresAt: inMs(3600_000) });
    expect(back.status).toBe(200);
    expect((await detail()).status).toBe(200);
  });
});
