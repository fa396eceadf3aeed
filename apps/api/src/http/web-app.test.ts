import { mkdtemp, mkdir, rm, writeFile, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express, { type Express } from 'express';
import { isLoopback } from '../routes/dev-mail.routes.ts';
import { createHarness, type Harness } from '../../test/harness.ts';

let h: Harness;
let dir: string;
let app: Express;

const eml = (subject: string, to: string, text: string) =>
  [
    `From: Helix <no-reply@helix.local>`,
    `To: ${to}`,
    `Subject: ${subject}`,
    'Date: Fri, 21 Nov 2025 10:00:00 +0000',
    'Content-Type: text/plain; charset=utf-8',
    '',
    text,
    '',
  ].join('\r\n');

beforeAll(async () => {
  h = await createHarness();
  dir = await mkdtemp(path.join(os.tmpdir(), 'helix-web-'));
  await mkdir(path.join(dir, 'web', 'assets'), { recursive: true });
  await mkdir(path.join(dir, 'mail'), { recursive: true });
  await writeFile(path.join(dir, 'web', 'index.html'), '<!doctype html><title>Helix</title>');
  await writeFile(path.join(dir, 'web', 'sw.js'), 'self.addEventListener("fetch", () => {});');
  await writeFile(path.join(dir, 'web', 'assets', 'app-abc123.js'), 'console.log(1)');
  await writeFile(path.join(dir, 'mail', 'old.eml'), eml('Old one', 'a@example.test', 'old'));
  await utimes(path.join(dir, 'mail', 'old.eml'), new Date(2000, 1, 1), new Date(2000, 1, 1));
  await writeFile(
    path.join(dir, 'mail', 'new.eml'),
    eml(
      'Set your <b>Helix</b> password',
      'rosa@example.test',
      'Open http://portal.test/set-password?token=abc&x=<script> now',
    ),
  );
  app = h.appWith({ WEB_DIST_DIR: path.join(dir, 'web'), DEV_MAIL_DIR: path.join(dir, 'mail') });
});
afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the built web app', () => {
  it('serves files, and index.html for client routes, without caching index.html and sw.js', async () => {
    const route = await request(app).get('/user/settings/subscription');
    expect(route.status).toBe(200);
    expect(route.text).toContain('<title>Helix</title>');
    expect(route.headers['cache-control']).toBe('no-cache');
    expect(route.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(route.headers['x-frame-options']).toBe('SAMEORIGIN');

    const sw = await request(app).get('/sw.js');
    expect(sw.headers['cache-control']).toBe('no-cache');
    const asset = await request(app).get('/assets/app-abc123.js');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await request(app).get('/missing.js')).status).toBe(404);
  });

  it('lets other sites frame the embed and share pages only', async () => {
    const embed = await request(app).get('/embed/some-token');
    expect(embed.status).toBe(200);
    expect(embed.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(embed.headers['x-frame-options']).toBeUndefined();
  });

  it('never answers /api paths with the app', async () => {
    const res = await request(app).get('/api/unknown');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/json/);
  });
});

describe('dev mail page', () => {
  it('lists caught e-mail newest first, escaped', async () => {
    const res = await request(app).get('/dev/mail');
    expect(res.status).toBe(200);
    expect(res.text.indexOf('Set your &lt;b&gt;Helix&lt;/b&gt; password')).toBeGreaterThan(-1);
    expect(res.text).toContain('href="/dev/mail/new.eml"');
    expect(res.text.indexOf('Set your')).toBeLessThan(res.text.indexOf('Old one'));
    expect(res.text).not.toContain('<b>Helix</b>');
  });

  it('shows one e-mail with clickable links and refuses other paths', async () => {
    const res = await request(app).get('/dev/mail/new.eml');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<a href="http://portal.test/set-password?token=abc&amp;x=">');
    expect(res.text).toContain('&lt;script&gt; now');
    expect(res.text).not.toContain('<script>');
    expect((await request(app).get('/dev/mail/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    expect((await request(app).get('/dev/mail/missing.eml')).status).toBe(404);
  });

  it('answers only requests from this machine', async () => {
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('::ffff:127.0.0.1')).toBe(true);
    for (const address of ['203.0.113.7', '::ffff:203.0.113.7', '10.0.0.1', '127.0.0.1.evil', undefined])
      expect(isLoopback(address), String(address)).toBe(false);

    // The same app behind a connection from another machine (the socket's address, not a header).
    const remote = express();
    remote.use((req, _res, next) => {
      Object.defineProperty(req.socket, 'remoteAddress', { value: '203.0.113.7', configurable: true });
      next();
    });
    remote.use(app);
    for (const p of ['/dev/mail', '/dev/mail/new.eml']) {
      const res = await request(remote).get(p).set('X-Forwarded-For', '127.0.0.1');
      expect(res.status, p).toBe(404);
      expect(res.text).not.toContain('Helix');
    }
    expect((await request(app).get('/dev/mail')).status).toBe(200);
  });

  it('is off in production', async () => {
    const prod = h.appWith({
      NODE_ENV: 'production',
      SIGNING_SECRET: 'a-production-secret-of-at-least-32-chars',
      DEV_MAIL_DIR: path.join(dir, 'mail'),
    });
    expect((await request(prod).get('/dev/mail')).status).toBe(404);
  });
});
