import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@helix/server/db';
import { createRedis } from '@helix/server/redis';
import { createApp } from '../app.ts';
import { createHarness, type Harness } from '../../test/harness.ts';

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
    const res = await request(h.app).get('/api/health/ready');
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
});
