import { freePort } from '@helix/stack/services/net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, parseConfig } from '@helix/server';
import { createWorkerRuntime } from '@helix/worker/worker-runtime';
import {
  createCheckedApp as createApp,
  createHarness,
  LogCapture,
  type Harness,
} from '../../test/harness.ts';

const TOKEN = 'metrics-token-for-tests';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => {
  await h?.close();
});

/** One sample's value from a Prometheus text answer, by metric name and the labels it must carry. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text
    .split('\n')
    .find(
      (l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics on the API', () => {
  it('is not there without METRICS_TOKEN, and refuses a scraper without the token', async () => {
    const off = createApp({ ...h.deps, config: { ...h.config, METRICS_TOKEN: undefined } });
    expect((await request(off).get('/metrics')).status).toBe(404);
    const none = await request(h.app).get('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(
      (await request(h.app).get('/metrics').set('Authorization', 'Bearer wrong-token-xxxxxx')).status,
    ).toBe(401);
  });

  it('answers request durations by route pattern and status, queues, the pool and the process', async () => {
    await request(h.app).get('/api/health');
    await request(h.app).get('/api/no-such-call');
    await request(h.app).get('/api/t/12345/user/info');
    await h.db.$queryRaw`SELECT 1`;
    const res = await request(h.app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    const count = 'helix_http_request_duration_seconds_count';
    expect(
      sample(text, count, { method: 'GET', route: '/api/health', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, count, { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    // A tenant's id never becomes a label value (a sample's value, a float, may contain the digits).
    expect(text).not.toMatch(/="[^"]*12345[^"]*"/);
    expect(sample(text, 'helix_queue_jobs', { family: 'email', state: 'waiting' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'helix_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'helix_process_resident_memory_bytes', { process: 'api' })).toBeGreaterThan(0);
  });
});

describe('one request id from the API into its jobs and their logs', () => {
  it("carries X-Request-Id into the job it enqueues, the worker's log lines and the worker's metrics", async () => {
    const requestId = `trace-${Date.now()}`;
    const res = await request(h.app)
      .post('/api/user/send_password_reset_token')
      .set('X-Request-Id', requestId)
      .send({ email: 'nobody-here@example.com' });
    expect(res.status).toBe(200);
    const jobs = await h.deps.queue.queueOf('email').getJobs(['waiting', 'delayed', 'prioritized']);
    const job = jobs.find((j) => j.name === 'password-reset-request');
    expect((job?.opts as { requestId?: string }).requestId).toBe(requestId);

    const port = await freePort();
    const config = parseConfig({
      DATABASE_URL: h.config.DATABASE_URL,
      REDIS_URL: h.config.REDIS_URL,
      REDIS_PREFIX: h.config.REDIS_PREFIX,
      PUBLIC_URL: h.config.PUBLIC_URL,
      METRICS_TOKEN: TOKEN,
      METRICS_PORT: String(port),
    });
    const logs = new LogCapture();
    const runtime = createWorkerRuntime(config, createLogger('debug', 'worker-test', logs), { db: h.db });
    await runtime.start({ families: ['email'] });
    try {
      const done = () => logs.lines.some((l) => l.includes('"job done"') && l.includes(requestId));
      for (let i = 0; i < 100 && !done(); i += 1) await new Promise((r) => setTimeout(r, 100));
      expect(done()).toBe(true);
      const scrape = await fetch(`http://127.0.0.1:${port}/metrics`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
      expect(scrape.status).toBe(200);
      const text = await scrape.text();
      const labels = { family: 'email', job: 'password-reset-request' };
      expect(sample(text, 'helix_jobs_total', { ...labels, outcome: 'completed' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'helix_job_run_seconds_count', labels)).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'helix_job_wait_seconds_count', labels)).toBeGreaterThanOrEqual(1);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    } finally {
      await runtime.stop();
    }
  });
});
