import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createLogger } from '@helix/server';
import { LogCapture } from '../../test/harness.ts';
import './types.ts';
import { levelOf, requestLogger, scrubUrl } from './request-logger.ts';

function appWith(level: string) {
  const logs = new LogCapture();
  const app = express();
  app.use(requestLogger(createLogger(level, 'request-logger-test', logs)));
  app.get('/api/health', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/api/plain', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/api/viewer/model', (req, res) => {
    if (req.query.fail) throw new Error('database gone');
    res.json({ ok: true });
  });
  app.get(['/embed/:token', '/share/:token'], (_req, res) => {
    res.send('<html></html>');
  });
  app.get('/api/ready', (_req, res) => {
    res.status(503).json({ status: 'error', postgres: 'ok', redis: 'error' });
  });
  app.post('/api/model/embed/detail', (_req, res) => {
    res.status(404).json({ success: false });
  });
  const errors: ErrorRequestHandler = (err, req, res, _next) => {
    req.log?.error({ err }, 'unhandled error');
    res.status(500).json({ statusCode: 500 });
  };
  app.use(errors);
  const lines = () => logs.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { app, logs, lines };
}

describe('requestLogger', () => {
  it('logs one line per request with the scrubbed URL, and answers the request id', async () => {
    const { app, lines } = appWith('info');
    const res = await request(app).get('/api/plain?token=SECRET-1&sort=name').set('User-Agent', 'ua-test');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const given = await request(app).get('/api/plain').set('X-Request-Id', 'trace-123');
    expect(given.headers['x-request-id']).toBe('trace-123');
    const odd = await request(app).get('/api/plain').set('X-Request-Id', 'not ok; <script>');
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const logged = lines();
    expect(logged).toHaveLength(3);
    expect(logged[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: {
        id: res.headers['x-request-id'],
        method: 'GET',
        url: '/api/plain?token=%5Bredacted%5D&sort=name',
        userAgent: 'ua-test',
      },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(logged[1]).toMatchObject({ req: { id: 'trace-123' } });
    expect(JSON.stringify(logged)).not.toContain('SECRET-1');
  });

  it('logs a 503 (an outage, try later) at warn without a stack, unlike a 500', async () => {
    const { app, lines } = appWith('info');
    for (let i = 0; i < 3; i += 1) expect((await request(app).get('/api/ready')).status).toBe(503);
    const logged = lines();
    expect(logged.map((l) => [l.level, l.msg, l.res])).toEqual(
      Array(3).fill([40, 'request completed', { statusCode: 503 }]),
    );
    expect(JSON.stringify(logged)).not.toMatch(/"err"|stack/);
    expect(levelOf('/api/ready', 503)).toBe('warn');
    expect(levelOf('/api/plain', 500)).toBe('error');
    expect(levelOf('/api/plain', 502)).toBe('error');
  });

  it('skips health checks, and logs the public embed path at debug unless it fails', async () => {
    const { app, lines } = appWith('info');
    await request(app).get('/api/health');
    await request(app).get('/api/viewer/model?model=m&subscription=EMBED-SECRET&currentmode=embedding');
    expect(lines()).toEqual([]);
    await request(app).post('/api/model/embed/detail').send({ token: 'EMBED-SECRET' });
    const failed = await request(app).get('/api/viewer/model?subscription=EMBED-SECRET&fail=1');
    expect(failed.status).toBe(500);
    const logged = lines();
    expect(logged.map((l) => [l.level, l.msg])).toEqual([
      [40, 'request completed'],
      [50, 'unhandled error'],
      [50, 'request errored'],
    ]);
    // The error logged through req.log carries the request, scrubbed too.
    expect(logged[1]).toMatchObject({
      req: { method: 'GET', url: '/api/viewer/model?subscription=%5Bredacted%5D&fail=1' },
      err: { message: 'database gone' },
    });
    expect(logged[2]).toMatchObject({
      res: { statusCode: 500 },
      err: { message: 'failed with status code 500' },
    });
    expect(JSON.stringify(logged)).not.toContain('EMBED-SECRET');

    const debug = appWith('debug');
    await request(debug.app).get('/api/viewer/model?model=m&subscription=EMBED-SECRET&currentmode=embedding');
    expect(debug.lines()).toMatchObject([
      {
        level: 20,
        msg: 'request completed',
        req: { url: '/api/viewer/model?model=m&subscription=%5Bredacted%5D&currentmode=embedding' },
      },
    ]);
  });

  it('never logs the embed token of the /embed/ and /share/ pages or of the detail call body', async () => {
    const { app, lines } = appWith('debug');
    const token = 'A'.repeat(20) + '_-' + 'b'.repeat(21);
    expect((await request(app).get(`/embed/${token}`)).status).toBe(200);
    expect((await request(app).get(`/share/${token}?x=1`)).status).toBe(200);
    await request(app).post('/api/model/embed/detail').send({ token });
    const logged = lines();
    expect(logged.map((l) => (l.req as { url: string }).url)).toEqual([
      '/embed/[redacted]',
      '/share/[redacted]?x=1',
      '/api/model/embed/detail',
    ]);
    expect(JSON.stringify(logged)).not.toContain(token);
  });

  it('scrubs every secret query parameter', () => {
    expect(scrubUrl('/x')).toBe('/x');
    expect(scrubUrl('/cb?code=a&state=b&keep=1&SIG=c&access_token=d&id_token=e&password=f&apiToken=g')).toBe(
      '/cb?code=%5Bredacted%5D&state=%5Bredacted%5D&keep=1&SIG=%5Bredacted%5D&access_token=%5Bredacted%5D' +
        '&id_token=%5Bredacted%5D&password=%5Bredacted%5D&apiToken=%5Bredacted%5D',
    );
    expect(scrubUrl('/embed/TOKEN')).toBe('/embed/[redacted]');
    expect(scrubUrl('/share/TOKEN/')).toBe('/share/[redacted]/');
    expect(scrubUrl('/api/share/x')).toBe('/api/share/x');
  });
});
