import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { freePort } from '@helix/stack/services/net';
import { COMMAND_CLIENT_OPTIONS, createRedis } from '@helix/server/redis';
import { createCheckedApp as createApp, createHarness, type Harness } from '../../test/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    RATE_LIMIT_MAX: '3',
    RATE_LIMIT_WINDOW_SECONDS: '60',
    BRANDING_RATE_LIMIT_MAX: '3',
    BRANDING_RATE_LIMIT_WINDOW_SECONDS: '60',
  });
});
afterAll(async () => {
  await h?.close();
});

const tooMany = {
  statusCode: 429,
  error: 'Too Many Requests',
  code: 'TOO_MANY_REQUESTS',
  message: MSG.tooManyRequests,
};

describe('rate limits', () => {
  it.each([
    ['/api/user/register', {}],
    ['/api/user/join', {}],
    ['/api/user/send_password_reset_token', { email: 'nobody@example.test' }],
    ['/api/user/reset_password', { token: 'x', password: 'long enough' }],
    ['/api/user/validate-login', { type: 'login', code: 'x' }],
    // The public branding lookup has limits of its own (BRANDING_RATE_LIMIT_*).
    ['/api/tenant/custom-branding-detail', { brandName: 'Acme' }],
  ])('answers 429 on %s after the limit', async (path, body) => {
    for (let i = 0; i < 3; i += 1) {
      const res = await request(h.app).post(path).send(body);
      expect(res.status).not.toBe(429);
    }
    const res = await request(h.app).post(path).send(body);
    expect(res.status).toBe(429);
    expect(res.body).toEqual(tooMany);
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('counts in Redis, so another API process sees the same count', async () => {
    const other = h.appWith({});
    const res = await request(other).post('/api/user/register').send({});
    expect(res.status).toBe(429);
  });

  it('does not limit other routes', async () => {
    expect((await request(h.app).get('/api/guest/subscription/list')).status).toBe(200);
  });

  it('fails open at once while Redis is down, with one log line for the outage', async () => {
    const redis = createRedis(`redis://127.0.0.1:${await freePort()}`, COMMAND_CLIENT_OPTIONS);
    const logged = h.logs.text.length;
    try {
      const app = createApp({ ...h.deps, redis });
      for (let i = 0; i < 6; i += 1) {
        const res = await request(app)
          .post('/api/user/login')
          .send({ email: 'down@example.test', password: 'x' });
        expect([400, 401, 422]).toContain(res.status);
      }
      const text = h.logs.text.slice(logged);
      expect(text.match(/redis unavailable: outage started/g)).toHaveLength(1);
      expect(text).not.toMatch(/rate limiter|unhandled error/);
    } finally {
      redis.disconnect();
    }
  });
});
