import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@helix/server';
import { EMBEDDABLE, securityHeaders } from './security.ts';

const config = parseConfig({
  NODE_ENV: 'test',
  DATABASE_URL: 'postgresql://127.0.0.1:5432/unused',
  REDIS_URL: 'redis://127.0.0.1:6379',
  PUBLIC_URL: 'http://portal.test',
});
const app = express();
app.use(securityHeaders(config));
app.get('/{*rest}', (_req, res) => {
  res.send('ok');
});

const framable = async (path: string) => {
  const res = await request(app).get(path);
  return {
    csp: res.headers['content-security-policy'] as string,
    xfo: res.headers['x-frame-options'] as string | undefined,
  };
};

describe('framing rule', () => {
  it('lets any site frame /embed/<token> and /share/<token>', async () => {
    for (const path of ['/embed/abc_DEF-123', '/share/abc_DEF-123', '/embed/abc_DEF-123/']) {
      const { csp, xfo } = await framable(path);
      expect(csp).toContain('frame-ancestors *');
      expect(xfo).toBeUndefined();
    }
  });

  it('lets any site frame a lesson’s pupil pages (a course’s launch lands there inside the platform)', async () => {
    for (const path of ['/join/ABC234', '/lesson/l1_AbC-9', '/join/ABC234/']) {
      const { csp, xfo } = await framable(path);
      expect(csp, path).toContain('frame-ancestors *');
      expect(xfo, path).toBeUndefined();
    }
    for (const path of ['/join', '/join/', '/lesson', '/join/a/b', '/user/lessons/abc', '/lessons/abc']) {
      const { csp, xfo } = await framable(path);
      expect(csp, path).toContain("frame-ancestors 'self'");
      expect(xfo, path).toBe('SAMEORIGIN');
    }
  });

  it('keeps deeper or other paths same-origin only (the login form never shows in a stranger frame)', async () => {
    for (const path of [
      '/embed/x/y',
      '/share/x/y/',
      '/embed/',
      '/embed',
      '/embedx/abc',
      '/login',
      '/x/embed/abc',
    ]) {
      const { csp, xfo } = await framable(path);
      expect(csp, path).toContain("frame-ancestors 'self'");
      expect(xfo, path).toBe('SAMEORIGIN');
    }
    expect(EMBEDDABLE.test('/embed/x/y')).toBe(false);
  });
});

describe('static assets', () => {
  it('serves hashed build files without the document-only headers, keeping nosniff', async () => {
    const asset = await request(app).get('/assets/index-abc123.js');
    expect(asset.headers['content-security-policy']).toBeUndefined();
    expect(asset.headers['x-frame-options']).toBeUndefined();
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // Documents and the service worker (a worker's CSP is its script's header) keep the policy.
    for (const path of ['/login', '/sw.js', '/assets']) {
      const res = await request(app).get(path);
      expect(res.headers['content-security-policy'], path).toContain("default-src 'self'");
    }
  });
});
