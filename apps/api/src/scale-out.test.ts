import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Express } from 'express';
import { createTenant, createUser, PASSWORD } from '@helix/server/testing/factories';
import { sha256 } from '@helix/server/tokens';
import { createCheckedApp as createApp, type Twin } from '../test/harness.ts';
import { Draining } from './http/draining.ts';
import { bearer, createModel, createModelHarness, customer, type ModelHarness } from '../test/models.ts';

/**
 * Two API processes over one PostgreSQL and one Redis (docs/scale-out.md): `one` is the harness's app,
 * `two` a twin with its own database pool, Redis connections and configuration (so its own in-process
 * caches). What one process does, the other must honour.
 */
const CACHE_MS = 1_000;
const env = {
  EMBED_ACCESS_CACHE_MS: String(CACHE_MS),
  LOGIN_FREE_FAILURES: '3',
  EMBED_TOKEN_RATE_LIMIT_MAX: '30',
  VIEW_GRACE_PERCENT: '0',
};
let h: ModelHarness;
let twin: Twin;
let one: Express;
let two: Express;

beforeAll(async () => {
  h = await createModelHarness(env);
  twin = await h.twin(env);
  one = h.app;
  two = twin.app;
});
afterAll(async () => {
  await twin?.close();
  await h?.close();
});

const VIEWER = 'http://viewer.test';
const detail = (app: Express, token: string) => request(app).post('/api/model/embed/detail').send({ token });
/** The viewer's query of a page load (its own viewer token, from the embed detail). */
const viewerQuery = (url: string) => Object.fromEntries(new URL(url).searchParams.entries());
const viewerLoad = (app: Express, query: Record<string, string>) =>
  request(app).get('/api/viewer/model').query(query).set('Origin', VIEWER);

async function embedLink(opts: { viewLimit?: number } = {}) {
  const a = await customer(h);
  if (opts.viewLimit !== undefined) {
    await h.db.plan.update({ where: { id: a.plan!.id }, data: { viewLimit: opts.viewLimit } });
  }
  const model = await createModel(h);
  const res = await request(one)
    .post(`${a.base}/model/embed`)
    .set(bearer(a.token))
    .send({ id: model.id, settings: ['info'] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const token = res.body.token as string;
  const link = await h.db.embedToken.findUniqueOrThrow({ where: { tokenHash: sha256(token) } });
  return { a, model, token, linkId: link.id };
}

describe('two API processes', () => {
  it('a session made on one works on the other, and a logout on the other ends it on both', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const login = await request(one).post('/api/user/login').send({ email: user.email, password: PASSWORD });
    expect(login.status).toBe(200);
    const token = login.body.apiToken as string;
    const base = `/api/t/${tenant.domainPrefix}`;
    for (const app of [one, two]) {
      const info = await request(app).get(`${base}/user/info`).set(bearer(token));
      expect(info.status).toBe(200);
      expect(info.body.email).toBe(user.email);
    }
    expect((await request(two).post(`${base}/user/logout`).set(bearer(token)).send({})).status).toBe(204);
    for (const app of [one, two]) {
      expect((await request(app).get(`${base}/user/info`).set(bearer(token))).status).toBe(401);
    }
  });

  it('a link revoked through one stops on the other within EMBED_ACCESS_CACHE_MS', async () => {
    const { a, token, linkId } = await embedLink();
    // Both processes have the link in their cache.
    expect((await detail(one, token)).status).toBe(200);
    expect((await detail(two, token)).status).toBe(200);
    const revoked = await request(one)
      .post(`${a.base}/model/links/revoke`)
      .set(bearer(a.token))
      .send({ id: linkId });
    expect(revoked.status).toBe(200);
    const at = Date.now();
    // The process that revoked it forgets it at once.
    expect((await detail(one, token)).status).toBe(404);
    // The other may answer from its cache, but only for a load that started within the bound (an
    // entry lives CACHE_MS from when its load started, and both loads started before the revocation).
    const servedLate: number[] = [];
    let stopped = false;
    while (!stopped && Date.now() - at < CACHE_MS * 4) {
      const started = Date.now() - at;
      const status = (await detail(two, token)).status;
      if (status === 404) stopped = true;
      else if (started > CACHE_MS) servedLate.push(started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(stopped).toBe(true);
    expect(servedLate).toEqual([]);
  });

  it('rate limits count across both: failed logins of one account', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const app = i % 2 === 0 ? one : two;
      const res = await request(app)
        .post('/api/user/login')
        .send({ email: user.email, password: `wrong-${i}` });
      statuses.push(res.status);
    }
    // LOGIN_FREE_FAILURES = 3 in all: the fourth failure (on the other process) makes the address wait.
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
  });

  it('rate limits count across both: loads of one embed link', async () => {
    const { token } = await embedLink();
    const statuses: number[] = [];
    for (let i = 0; i < 32; i += 1) statuses.push((await detail(i % 2 === 0 ? one : two, token)).status);
    // EMBED_TOKEN_RATE_LIMIT_MAX = 30 per link, whichever process answers.
    expect(statuses).toEqual([...Array<number>(30).fill(200), 429, 429]);
  });

  it('views are exact across both: each page load once, a viewer reloading on the other process once', async () => {
    const { model, token } = await embedLink();
    const loads = 10;
    const queries: Record<string, string>[] = [];
    for (let i = 0; i < loads; i += 1) {
      const app = i % 2 === 0 ? one : two;
      const page = await detail(app, token);
      expect(page.status).toBe(200);
      const query = viewerQuery(page.body.url as string);
      queries.push(query);
      expect((await viewerLoad(app, query)).status).toBe(200);
    }
    // The same viewers load again, each on the other process: within the view window, not counted again.
    for (const [i, query] of queries.entries()) {
      expect((await viewerLoad(i % 2 === 0 ? two : one, query)).status).toBe(200);
    }
    await h.flush();
    const sum = await h.db.modelViewDaily.aggregate({ where: { modelId: model.id }, _sum: { count: true } });
    expect(sum._sum.count).toBe(loads);
  });

  it('the view limit holds across both: loads alternate until the limit, then both refuse', async () => {
    const limit = 5;
    const { a, model, token } = await embedLink({ viewLimit: limit });
    await h.db.branding.update({
      where: { tenantId: a.tenant.id },
      data: { additionalViewsValidation: true },
    });
    const statuses: number[] = [];
    for (let i = 0; i < limit + 3; i += 1) {
      const app = i % 2 === 0 ? one : two;
      const page = await detail(app, token);
      if (page.status !== 200) {
        statuses.push(page.status);
        continue;
      }
      statuses.push((await viewerLoad(app, viewerQuery(page.body.url as string))).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.slice(limit).every((s) => s === 429)).toBe(true);
    await h.flush();
    const sum = await h.db.modelViewDaily.aggregate({ where: { modelId: model.id }, _sum: { count: true } });
    expect(sum._sum.count).toBe(limit);
  });
});

describe('behind the proxy', () => {
  it('believes X-Forwarded-* from the proxy’s addresses only (TRUST_PROXY)', () => {
    const trusts = (value: string) => {
      const fn = h.appWith({ TRUST_PROXY: value }).get('trust proxy fn') as (
        addr: string,
        i: number,
      ) => boolean;
      return (addr: string) => fn(addr, 0);
    };
    const local = trusts('127.0.0.1');
    expect(local('127.0.0.1')).toBe(true);
    expect(local('203.0.113.9')).toBe(false);
    const network = trusts('10.0.0.0/8, 127.0.0.1');
    expect(network('10.4.5.6')).toBe(true);
    expect(network('192.168.1.2')).toBe(false);
    expect(trusts('false')('127.0.0.1')).toBe(false);
  });

  it('a draining process answers readiness 503 and closes each connection after its answer', async () => {
    const draining = new Draining();
    const app = createApp(twin.deps, draining);
    let ready = await request(app).get('/api/health/ready');
    for (let i = 0; i < 3 && ready.status !== 200; i += 1)
      ready = await request(app).get('/api/health/ready');
    expect(ready.status).toBe(200);
    draining.start();
    const drained = await request(app).get('/api/health/ready');
    expect(drained.status).toBe(503);
    expect(drained.body).toEqual({ status: 'draining' });
    const live = await request(app).get('/api/health');
    expect(live.status).toBe(200);
    expect(live.headers.connection).toBe('close');
  });
});
