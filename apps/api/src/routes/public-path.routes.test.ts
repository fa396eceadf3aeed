import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request, { type Response as Answer } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequestDuration } from '@helix/server/metrics/metrics';
import { Draining } from '../http/draining.ts';
import { writeLinkPageBundle } from '../../test/link-page-bundle.ts';
import { bearer, createModel, createModelHarness, customer, type ModelHarness } from '../../test/models.ts';

/**
 * The page load's two requests as the app serves them before its router (http/public-path.ts): the
 * same answers as the router gives (a variant of the path the router still takes, or the page's first
 * load, served by the router while the renderer loads), the drain during a shutdown, the metrics.
 */
let h: ModelHarness;
let dir: string;
let webDist: string;
let token: string;

const VIEWER = 'http://viewer.test';
const SHELL = '<!doctype html><html><head><title>Helix</title></head><body></body></html>';

beforeAll(async () => {
  h = await createModelHarness();
  dir = await mkdtemp(path.join(os.tmpdir(), 'helix-public-path-'));
  webDist = path.join(dir, 'web');
  await mkdir(webDist, { recursive: true });
  await writeFile(path.join(webDist, 'embed.html'), SHELL);
  await writeFile(path.join(webDist, 'index.html'), SHELL);
  await writeLinkPageBundle(webDist);
  const owner = await customer(h);
  const model = await createModel(h, { name: 'Lean heart' });
  const res = await request(h.app)
    .post(`${owner.base}/model/embed`)
    .set(bearer(owner.token))
    .send({ id: model.id, settings: ['info'] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  token = res.body.token as string;
});
afterAll(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** An app with the drawn pages, and its drain. */
function pagesApp() {
  const draining = new Draining();
  return { app: h.appWith({ WEB_DIST_DIR: webDist }, draining), draining };
}

/** Headers but those that differ per request. */
const headersOf = (res: Answer) => {
  const differ = new Set(['date', 'x-request-id', 'etag', 'content-length']);
  return Object.fromEntries(Object.entries(res.headers).filter(([name]) => !differ.has(name)));
};

const viewerUrl = (page: string) => {
  const src = /<iframe[^>]* src="([^"]+)"/.exec(page)?.[1];
  expect(src, page.slice(0, 300)).toBeTruthy();
  return new URL(src!.replaceAll('&amp;', '&'));
};

const observed = async (route: string) =>
  (await httpRequestDuration.get()).values
    .filter((v) => v.labels.route === route && v.metricName === 'helix_http_request_duration_seconds_count')
    .reduce((n, v) => n + v.value, 0);

describe('the page load served before the router', () => {
  it('draws the page as the router does, the viewer token aside', async () => {
    const { app } = pagesApp();
    // The first load waits for the renderer, so the router serves it; the second is served first.
    const routed = await request(app).get(`/embed/${token}`).set('Sec-Fetch-Dest', 'iframe');
    const lean = await request(app).get(`/embed/${token}`).set('Sec-Fetch-Dest', 'iframe');
    expect(routed.status).toBe(200);
    expect(lean.status).toBe(200);
    expect(headersOf(lean)).toEqual(headersOf(routed));
    expect(lean.headers['content-security-policy']).toContain('frame-ancestors *');
    const viewerOf = (res: Answer) => viewerUrl(res.text).searchParams.get('viewer')!;
    expect(viewerOf(lean)).not.toBe(viewerOf(routed));
    expect(lean.text.replaceAll(viewerOf(lean), 'V')).toBe(routed.text.replaceAll(viewerOf(routed), 'V'));
    const missing = await request(app).get(`/embed/${'x'.repeat(43)}`);
    expect(missing.status).toBe(404);
  });

  it("answers the viewer's call as the router does: success, refusals and bad input", async () => {
    const { app } = pagesApp();
    const page = await request(app).get(`/embed/${token}`).set('Sec-Fetch-Dest', 'iframe');
    const query = Object.fromEntries(viewerUrl(page.text).searchParams.entries());
    // The model file's address is for the viewer's document, not for its call.
    delete query.glb;
    const before = await observed('/api/viewer/model');
    const load = await request(app).get('/api/viewer/model').query(query).set('Origin', VIEWER);
    expect(load.status, JSON.stringify(load.body)).toBe(200);
    expect(load.headers['access-control-allow-origin']).toBe(VIEWER);
    expect(load.body.viewer).toBe(query.viewer);
    expect(await observed('/api/viewer/model')).toBe(before + 1);
    // The reload through the router (a trailing slash) keeps the viewer and answers alike.
    const routed = await request(app).get('/api/viewer/model/').query(query).set('Origin', VIEWER);
    expect(routed.status).toBe(200);
    expect(headersOf(routed)).toEqual(headersOf(load));
    expect(routed.body).toEqual(load.body);
    for (const q of [
      { ...query, model: 'another-model' },
      { ...query, subscription: 'y'.repeat(43) },
      { ...query, unknown: '1' },
      {},
    ]) {
      const lean = await request(app).get('/api/viewer/model').query(q).set('Origin', VIEWER);
      const viaRouter = await request(app).get('/api/viewer/model/').query(q).set('Origin', VIEWER);
      expect(lean.status, JSON.stringify(lean.body)).toBeGreaterThanOrEqual(400);
      expect(lean.status).toBe(viaRouter.status);
      expect(lean.body).toEqual(viaRouter.body);
      expect(lean.body).toMatchObject({ statusCode: lean.status, code: expect.any(String) });
      expect(headersOf(lean)).toEqual(headersOf(viaRouter));
    }
  });

  it('closes kept-alive connections after the page and the call once the process drains', async () => {
    const { app, draining } = pagesApp();
    await request(app).get(`/embed/${token}`);
    const open = await request(app).get(`/embed/${token}`).set('Connection', 'keep-alive');
    expect(open.headers.connection).toBe('keep-alive');
    draining.start();
    const page = await request(app)
      .get(`/embed/${token}`)
      .set('Connection', 'keep-alive')
      .set('Sec-Fetch-Dest', 'iframe');
    expect(page.status).toBe(200);
    expect(page.headers.connection).toBe('close');
    const query = Object.fromEntries(viewerUrl(page.text).searchParams.entries());
    delete query.glb;
    const load = await request(app)
      .get('/api/viewer/model')
      .query(query)
      .set('Origin', VIEWER)
      .set('Connection', 'keep-alive');
    expect(load.status).toBe(200);
    expect(load.headers.connection).toBe('close');
  });
});
