import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';

/**
 * GET /api/viewer/model checks its public limits (per address, per link) in the script that counts its
 * view: ONE Redis round trip per load (public-limit.ts, load-limit.ts). A load refused before its view
 * (an unknown link) still counts against them. The limits' other cases: viewer.routes.test.ts.
 */
let h: ModelHarness;

beforeAll(async () => {
  h = await createModelHarness();
});
afterAll(async () => {
  await h?.close();
});

const VIEWER = 'http://viewer.test';

async function embedParams(caller: Caller, modelId: number) {
  const made = await request(h.app)
    .post(`${caller.base}/model/embed`)
    .set(bearer(caller.token))
    .send({ id: modelId, settings: ['info'] });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const detail = await request(h.app).post('/api/model/embed/detail').send({ token: made.body.token });
  const { viewer: _viewer, ...params } = Object.fromEntries(new URL(detail.body.url).searchParams.entries());
  return params;
}

describe('GET /api/viewer/model: limits and view in one Redis round trip', () => {
  it('a load (counted, or a reload) sends Redis one command', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const params = await embedParams(a, model.id);
    const load = () => request(h.app).get('/api/viewer/model').query(params).set('Origin', VIEWER);
    expect((await load()).status).toBe(200); // the period's counter initialised, the scripts loaded
    const spy = vi.spyOn(h.redis, 'sendCommand');
    try {
      for (let i = 0; i < 3; i += 1) {
        spy.mockClear();
        expect((await load()).status).toBe(200);
        expect(spy.mock.calls.map(([c]) => (c as { name: string }).name)).toEqual(['evalsha']);
      }
    } finally {
      spy.mockRestore();
    }
  });

  it('a load refused before its view (unknown link) counts against the address limit', async () => {
    const limited = h.appWith({ EMBED_RATE_LIMIT_MAX: '2', TRUST_PROXY: 'true' });
    const a = await customer(h);
    const model = await createModel(h);
    const params = await embedParams(a, model.id);
    const from = (ip: string, subscription = params.subscription!) =>
      request(limited)
        .get('/api/viewer/model')
        .query({ ...params, subscription })
        .set('Origin', VIEWER)
        .set('X-Forwarded-For', ip);
    const statuses = [
      (await from('198.51.100.91', 'not-a-link')).status,
      (await from('198.51.100.91', 'not-a-link-either')).status,
      (await from('198.51.100.91')).status,
      (await from('198.51.100.91', 'not-a-link')).status,
    ];
    expect(statuses).toEqual([403, 403, 429, 429]);
    expect((await from('198.51.100.92')).status).toBe(200);
  });
});
