import { mkdtemp, mkdir, rm, writeFile, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express, { type Express } from 'express';
import { isLoopback } from '../routes/dev-mail.routes.ts';
import { createHarness, type Harness } from '../../test/harness.ts';

let h: Harness;
let dir: string;
let app: Express;

const BIG_JS = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, name: `row ${i}` })))};`;
const BIG_CSS = Array.from({ length: 200 }, (_, i) => `.c${i} { color: #5f51fb; margin: ${i}px; }`).join(
  '\n',
);
const INDEX = `<!doctype html><title>Helix</title>${'<!-- shell -->'.repeat(200)}`;
const EMBED = `<!doctype html><title>Helix</title>${'<!-- embed shell -->'.repeat(200)}`;
const LOGIN = `<!doctype html><html data-google="on"><title>Login · Helix</title><form id="login">${'<!-- rendered -->'.repeat(200)}<button>Continue with Google</button></form>`;
const SIGNUP = `<!doctype html><html data-google="on"><title>Sign Up · Helix</title><form id="signup">${'<!-- rendered -->'.repeat(200)}<button>Continue with Google</button></form>`;
const SIGNUP_PASSWORD = `<!doctype html><html data-google="off"><title>Sign Up · Helix</title><form id="signup">${'<!-- rendered -->'.repeat(200)}</form>`;
const LOGIN_PASSWORD = `<!doctype html><html data-google="off"><title>Login · Helix</title><form id="login">${'<!-- rendered -->'.repeat(200)}</form>`;

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
  await writeFile(path.join(dir, 'web', 'assets', 'app-abc123.js'), 'console.log(1)');
  // As the build leaves them (vite-plugin-compression2): .br and .gz beside the text files.
  const compressed = async (file: string, text: string) => {
    await writeFile(file, text);
    await writeFile(`${file}.br`, brotliCompressSync(text));
    await writeFile(`${file}.gz`, gzipSync(text));
  };
  await compressed(path.join(dir, 'web', 'assets', 'page-def456.js'), BIG_JS);
  await compressed(path.join(dir, 'web', 'assets', 'page-def456.css'), BIG_CSS);
  await compressed(path.join(dir, 'web', 'index.html'), INDEX);
  await compressed(path.join(dir, 'web', 'login.html'), LOGIN);
  await compressed(path.join(dir, 'web', 'login-password.html'), LOGIN_PASSWORD);
  await compressed(path.join(dir, 'web', 'signup.html'), SIGNUP);
  await compressed(path.join(dir, 'web', 'signup-password.html'), SIGNUP_PASSWORD);
  await compressed(path.join(dir, 'web', 'embed.html'), EMBED);
  await compressed(path.join(dir, 'web', 'sw.js'), `self.addEventListener("fetch", () => {});${BIG_JS}`);
  // A map an older build left in dist/ (the build now moves them to apps/web/sourcemaps/).
  await compressed(path.join(dir, 'web', 'assets', 'page-def456.js.map'), '{"version":3,"sources":[]}');
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

  it('never serves a source map, compressed or not', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      for (const p of [
        '/assets/page-def456.js.map',
        '/assets/PAGE-def456.js.MAP',
        '/assets/page-def456.js.map.gz',
      ]) {
        const map = await request(app).get(p).set('Accept-Encoding', encoding);
        expect(map.status, `${p} ${encoding}`).toBe(404);
        expect(map.text, p).not.toContain('"version":3');
      }
    }
    // The file next to it still is.
    expect((await request(app).get('/assets/page-def456.js')).status).toBe(200);
  });

  it('sends the brotli or gzip file the browser accepts, with Vary: Accept-Encoding', async () => {
    const br = await request(app).get('/assets/page-def456.js').set('Accept-Encoding', 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/i);
    expect(br.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(br.text).toBe(BIG_JS); // supertest decodes it: the bytes are the real file, compressed
    expect(Number(br.headers['content-length'])).toBeLessThan(BIG_JS.length / 4);

    const gz = await request(app).get('/assets/page-def456.css').set('Accept-Encoding', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toMatch(/^text\/css; charset=utf-8$/i);
    expect(gz.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(gz.text).toBe(BIG_CSS);

    // Brotli is preferred whatever the order or weights the browser lists.
    const both = await request(app)
      .get('/assets/page-def456.css')
      .set('Accept-Encoding', 'gzip;q=1.0, br;q=1.0');
    expect(both.headers['content-encoding']).toBe('br');

    const plain = await request(app).get('/assets/page-def456.js').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(plain.text).toBe(BIG_JS);
    expect(Number(plain.headers['content-length'])).toBe(BIG_JS.length);
  });

  it('caches hashed assets for a year, compressed or not, and never index.html or the service worker', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const asset = await request(app).get('/assets/page-def456.js').set('Accept-Encoding', encoding);
      expect(asset.headers['cache-control'], encoding).toBe('public, max-age=31536000, immutable');

      const sw = await request(app).get('/sw.js').set('Accept-Encoding', encoding);
      expect(sw.status).toBe(200);
      expect(sw.headers['cache-control'], encoding).toBe('no-cache');
      expect(sw.headers['content-type']).toMatch(/javascript/);

      for (const [p, text] of [
        ['/index.html', INDEX],
        ['/login', INDEX],
        ['/embed/some-token', EMBED],
        ['/Embed/some-token/', EMBED],
        ['/embed/some-token/more', INDEX],
        ['/share/some-token', EMBED],
        ['/SHARE/some-token/', EMBED],
        ['/share/some-token/more', INDEX],
      ] as const) {
        const page = await request(app).get(p).set('Accept-Encoding', encoding);
        expect(page.status, p).toBe(200);
        expect(page.headers['cache-control'], `${p} ${encoding}`).toBe('no-cache');
        expect(page.headers['content-type'], p).toMatch(/^text\/html; charset=utf-8$/i);
        expect(page.headers['content-encoding'], `${p} ${encoding}`).toBe(
          encoding === 'identity' ? undefined : encoding,
        );
        expect(page.text, p).toBe(text);
      }
    }
  });

  it('lets other sites frame the embed and share pages only', async () => {
    const embed = await request(app).get('/embed/some-token');
    expect(embed.status).toBe(200);
    expect(embed.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(embed.headers['x-frame-options']).toBeUndefined();
  });

  it('answers /login on the portal host with the login page rendered at build time, and other hosts with the app shell', async () => {
    // The harness's PUBLIC_URL is http://portal.test.
    const built = await request(app).get('/login').set('Host', 'portal.test').set('Accept-Encoding', 'br');
    expect(built.status).toBe(200);
    expect(built.headers['content-encoding']).toBe('br');
    expect(built.headers['cache-control']).toBe('no-cache');
    expect(built.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(built.text).toContain('<form id="login">');
    expect((await request(app).get('/login/').set('Host', 'portal.test')).text).toContain(
      '<form id="login">',
    );
    // The harness has no Google provider: the page without its button.
    expect(built.text).toBe(LOGIN_PASSWORD);
    expect(built.text).not.toContain('Continue with Google');

    // A brand in the path, or a tenant's custom domain: the app shell, which asks for the look.
    for (const [host, route] of [
      ['portal.test', '/login/acme'],
      ['models.acme.example', '/login'],
    ] as const) {
      const shell = await request(app).get(route).set('Host', host);
      expect(shell.status).toBe(200);
      expect(shell.text).toContain('<title>Helix</title>');
    }
  });

  it('answers /signup on the portal host without a session or parameters with the sign-up rendered at build time', async () => {
    const built = await request(app).get('/signup').set('Host', 'portal.test');
    expect(built.headers['cache-control']).toBe('no-cache');
    expect(built.text).toBe(SIGNUP_PASSWORD);
    expect((await request(app).get('/signup/').set('Host', 'portal.test')).text).toBe(SIGNUP_PASSWORD);
    // A signed-in visitor (moved on by the app), an invitation link, a brand, a custom domain: the shell.
    for (const req of [
      request(app).get('/signup').set('Host', 'portal.test').set('Cookie', 'x=1; apiToken=abc'),
      request(app).get('/signup?token=abc').set('Host', 'portal.test'),
      request(app).get('/signup/acme').set('Host', 'portal.test'),
      request(app).get('/signup').set('Host', 'models.acme.example'),
    ]) {
      expect((await req).text).toContain('<title>Helix</title>');
    }
    const withGoogle = h.appWith({
      WEB_DIST_DIR: path.join(dir, 'web'),
      GOOGLE_CLIENT_ID: 'client',
      GOOGLE_CLIENT_SECRET: 'secret',
    });
    expect((await request(withGoogle).get('/signup').set('Host', 'portal.test')).text).toBe(SIGNUP);
  });

  it('draws the login with "Continue with Google" only when a Google provider is configured', async () => {
    const withGoogle = h.appWith({
      WEB_DIST_DIR: path.join(dir, 'web'),
      GOOGLE_CLIENT_ID: 'client',
      GOOGLE_CLIENT_SECRET: 'secret',
    });
    const page = await request(withGoogle).get('/login').set('Host', 'portal.test');
    expect(page.status).toBe(200);
    expect(page.text).toBe(LOGIN);
    expect((await request(withGoogle).get('/api/auth/providers')).body).toEqual({ google: true });
    expect((await request(app).get('/api/auth/providers')).body).toEqual({ google: false });

    // Only the id, not the secret: Google sign-in cannot work, so no button.
    const half = h.appWith({ WEB_DIST_DIR: path.join(dir, 'web'), GOOGLE_CLIENT_ID: 'client' });
    expect((await request(half).get('/login').set('Host', 'portal.test')).text).toBe(LOGIN_PASSWORD);
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
