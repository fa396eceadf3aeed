import net from 'node:net';
import request from 'supertest';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb } from '@helix/server/db';
import { COMMAND_CLIENT_OPTIONS, createRedis } from '@helix/server/redis';
import { createCheckedApp as createApp, createHarness, type Harness } from '../../test/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('health', () => {
  it('answers liveness', async () => {
    const res = await request(h.app).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('is ready when PostgreSQL and Redis answer', async () => {
    // The first check may also open the pool's first connection, which can take longer than a check
    // may on a busy machine (503 once): readiness is asked again, as a load balancer does.
    let res = await request(h.app).get('/api/health/ready');
    for (let i = 0; i < 3 && res.status !== 200; i += 1) res = await request(h.app).get('/api/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', postgres: 'ok', redis: 'ok' });
  });

  it('answers 503 naming what is down', async () => {
    const db = createDb('postgresql://postgres@127.0.0.1:1/nothing');
    const redis = createRedis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    try {
      const app = createApp({ ...h.deps, db, redis });
      const res = await request(app).get('/api/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'error', postgres: 'error', redis: 'error' });
      const live = await request(app).get('/api/health');
      expect(live.status).toBe(200);
    } finally {
      redis.disconnect();
      await db.$disconnect();
    }
  });

  it("answers within the checks' timeout when PostgreSQL and Redis accept connections but never answer", async () => {
    // A server that accepts and then says nothing: a hung dependency (the old check waited 5 s per probe).
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const db = createDb(`postgresql://postgres@127.0.0.1:${port}/nothing`);
    const redis = createRedis(`redis://127.0.0.1:${port}`, COMMAND_CLIENT_OPTIONS);
    redis.on('error', () => undefined);
    try {
      const app = createApp({ ...h.deps, db, redis });
      const started = Date.now();
      const res = await request(app).get('/api/ready');
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({ status: 'error', postgres: 'error', redis: 'error' });
    } finally {
      redis.disconnect();
      for (const socket of sockets) socket.destroy();
      silent.close();
      await db.$disconnect().catch(() => undefined);
    }
  });

  it('answers a request that needs an unreachable PostgreSQL with 503 DATABASE_UNAVAILABLE and Retry-After', async () => {
    const db = createDb('postgresql://postgres@127.0.0.1:1/nothing');
    const logged = h.logs.text.length;
    try {
      const app = createApp({ ...h.deps, db });
      const res = await request(app).get('/api/guest/subscription/list');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toMatchObject({ statusCode: 503, code: ERROR_CODES.databaseUnavailable });
      // Logged once as an outage, not as an unhandled error per request.
      await request(app).get('/api/guest/subscription/list');
      // The outage starts once a SELECT 1 confirms it (at once here: the connection is refused).
      await vi.waitFor(() => expect(h.logs.text.slice(logged)).toMatch(/postgresql unavailable/), {
        timeout: 60_000,
        interval: 50,
      });
      await request(app).get('/api/guest/subscription/list');
      const text = h.logs.text.slice(logged);
      expect(text).not.toMatch(/unhandled error/);
      expect(text.match(/postgresql unavailable: outage started/g)).toHaveLength(1);
    } finally {
      await db.$disconnect().catch(() => undefined);
    }
  });
});
