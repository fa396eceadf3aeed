import express, { type RequestHandler } from 'express';
import request, { type Response as Answer } from 'supertest';
import { describe, expect, it } from 'vitest';
import { AppError, createLogger } from '@helix/server';
import { httpRequestDuration } from '@helix/server/metrics/metrics';
import { LogCapture } from '../../test/harness.ts';
import './types.ts';
import { Draining } from './draining.ts';
import { errorHandler } from './error-handler.ts';
import { httpMetrics } from './http-metrics.ts';
import { servePublicPathsFirst } from './public-path.ts';
import { requestLogger } from './request-logger.ts';

/**
 * The public path's dispatcher (public-path.ts): a public path is answered by the app's own steps for
 * it without the router, and its answer is the router's answer of the same steps: headers, statuses,
 * error shapes, the drain, the request log and the metrics. `/lean` is served first; `/lean/` (a
 * variant the router also takes) goes through the router, which marks its answers with X-Routed.
 */
function appWith(options: { ready?: () => boolean } = {}) {
  const logs = new LogCapture();
  const draining = new Draining();
  const logger = createLogger('info', 'public-path-test', logs);
  const handler: RequestHandler = async (req, res, next) => {
    const q = req.query.q;
    if (q === 'refused') throw AppError.forbidden('No, thank you');
    if (q === 'rejected') return Promise.reject(new Error('a defect'));
    if (q === 'pass') return next();
    await Promise.resolve();
    res.set('Cache-Control', 'no-store');
    // The app's settings hold: trust proxy (req.ip) and JSON escaping.
    res.json({ ip: req.ip, q, html: '<b>' });
  };
  const steps = [draining.middleware(), requestLogger(logger), httpMetrics('/lean'), handler];
  const app = express();
  app.set('json escape', true);
  app.set('trust proxy', true);
  app.use((_req, res, next) => {
    res.setHeader('X-Routed', 'yes');
    next();
  });
  app.get('/lean', ...steps);
  app.use((_req, res) => {
    res.status(404).json({ routed: true });
  });
  app.use(errorHandler);
  servePublicPathsFirst(app, [
    { methods: ['GET', 'HEAD'], path: /^\/lean$/, ready: options.ready, steps: [...steps, errorHandler] },
  ]);
  const lines = () => logs.lines.map((l) => JSON.parse(l) as { msg: string; req: { url: string } });
  return { app, draining, lines };
}

/** An answer's headers but those that differ per request or per path taken. */
const headersOf = (res: Answer) => {
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  const differ = new Set(['date', 'x-request-id', 'etag', 'x-routed']);
  return Object.fromEntries(Object.entries(res.headers).filter(([name]) => !differ.has(name)));
};

const observed = async (route: string) =>
  (await httpRequestDuration.get()).values
    .filter((v) => v.labels.route === route && v.metricName === 'helix_http_request_duration_seconds_count')
    .reduce((n, v) => n + v.value, 0);

describe('a public path served before the router', () => {
  it("answers as the router answers the same steps: status, headers, body, with the app's settings", async () => {
    const { app } = appWith();
    const lean = await request(app).get('/lean?q=hi').set('X-Forwarded-For', '203.0.113.9');
    const routed = await request(app).get('/lean/?q=hi').set('X-Forwarded-For', '203.0.113.9');
    expect(lean.headers['x-routed']).toBeUndefined();
    expect(routed.headers['x-routed']).toBe('yes');
    expect(lean.status).toBe(200);
    expect(lean.text).toBe(routed.text);
    expect(lean.text).toContain('\\u003cb\\u003e');
    expect(lean.body).toEqual({ ip: '203.0.113.9', q: 'hi', html: '<b>' });
    expect(headersOf(lean)).toEqual(headersOf(routed));
    // HEAD, as an Express GET route answers it: the headers without the body.
    const head = await request(app).head('/lean?q=hi');
    expect(head.status).toBe(200);
    expect(head.headers['x-routed']).toBeUndefined();
    expect(head.text).toBeUndefined();
  });

  it("answers an AppError and a rejected promise with the app's error shape, as the router does", async () => {
    const { app } = appWith();
    for (const q of ['refused', 'rejected']) {
      const lean = await request(app).get(`/lean?q=${q}`);
      const routed = await request(app).get(`/lean/?q=${q}`);
      expect(lean.headers['x-routed']).toBeUndefined();
      expect(lean.status, q).toBe(q === 'refused' ? 403 : 500);
      expect(lean.body).toEqual(routed.body);
      expect(headersOf(lean)).toEqual(headersOf(routed));
    }
    expect((await request(app).get('/lean?q=refused')).body).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      code: 'FORBIDDEN',
      message: 'No, thank you',
    });
    expect((await request(app).get('/lean?q=rejected')).body).toMatchObject({ statusCode: 500 });
  });

  it('leaves to the router other methods and paths, a path not ready yet, and a request its steps pass on', async () => {
    let ready = false;
    const { app } = appWith({ ready: () => ready });
    expect((await request(app).get('/lean?q=hi')).headers['x-routed']).toBe('yes');
    ready = true;
    expect((await request(app).get('/lean?q=hi')).headers['x-routed']).toBeUndefined();
    expect((await request(app).post('/lean')).headers['x-routed']).toBe('yes');
    expect((await request(app).get('/other')).body).toEqual({ routed: true });
    const passed = await request(app).get('/lean?q=pass');
    expect(passed.status).toBe(404);
    expect(passed.body).toEqual({ routed: true });
  });

  it('drains (Connection: close once the process is stopping), logs each request and counts it', async () => {
    const { app, draining, lines } = appWith();
    const before = await observed('/lean');
    const open = await request(app).get('/lean?q=open').set('Connection', 'keep-alive');
    expect(open.headers.connection).toBe('keep-alive');
    draining.start();
    const drained = await request(app).get('/lean?q=drained').set('Connection', 'keep-alive');
    expect(drained.status).toBe(200);
    expect(drained.headers.connection).toBe('close');
    expect(drained.headers['x-routed']).toBeUndefined();
    expect(await observed('/lean')).toBe(before + 2);
    expect(
      lines()
        .filter((l) => l.msg === 'request completed')
        .map((l) => l.req.url),
    ).toEqual(['/lean?q=open', '/lean?q=drained']);
  });
});
