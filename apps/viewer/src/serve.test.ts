import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createViewerServer } from './serve.ts';

let dir = '';
let server: http.Server;
let origin = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'helix-viewer-serve-'));
  await mkdir(path.join(dir, 'dist', 'assets'), { recursive: true });
  await mkdir(path.join(dir, 'models'));
  await writeFile(path.join(dir, 'dist', 'index.html'), '<!doctype html><title>viewer</title>');
  const script = 'console.log(1);'.repeat(200);
  await writeFile(path.join(dir, 'dist', 'assets', 'app-abc123.js'), script);
  // What the build's compression plugin writes beside each asset.
  await writeFile(path.join(dir, 'dist', 'assets', 'app-abc123.js.gz'), gzipSync(script));
  await writeFile(path.join(dir, 'models', 'a.glb'), Buffer.from('glTF....'));
  await writeFile(path.join(dir, 'secret.txt'), 'secret');
  server = createViewerServer({
    distDir: path.join(dir, 'dist'),
    modelsDir: path.join(dir, 'models'),
    apiUrl: 'https://api.helix.test/',
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('viewer server', () => {
  it('serves index.html framable from anywhere, without X-Frame-Options', async () => {
    const res = await fetch(`${origin}/?src=x.glb&settings=info`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors \*/);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('<title>viewer</title>');
  });

  it('tells the page the API origin: a meta in index.html and /config.json, never cached stale', async () => {
    const res = await fetch(`${origin}/?model=x&subscription=y`);
    const html = await res.text();
    expect(html).toContain('<meta name="helix-api" content="https://api.helix.test" />');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[0-9a-f]{20}"$/);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(html)));
    expect((await fetch(`${origin}/`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const config = await fetch(`${origin}/config.json`);
    expect(config.headers.get('content-type')).toMatch(/application\/json/);
    expect(config.headers.get('cache-control')).toBe('no-cache');
    expect(await config.json()).toEqual({ apiUrl: 'https://api.helix.test', allowSrc: false });
    // Another API origin for the same file: another ETag, so no stale 304.
    const other = createViewerServer({ distDir: path.join(dir, 'dist'), apiUrl: 'http://localhost:4000' });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const again = await fetch(`${otherOrigin}/`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(200);
      expect(await again.text()).toContain('content="http://localhost:4000"');
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('refuses the development-only src by default and says so to the page; allowSrc turns it on', async () => {
    const html = await (await fetch(`${origin}/?src=x.glb`)).text();
    expect(html).toContain('<meta name="helix-allow-src" content="false" />');
    const dev = createViewerServer({
      distDir: path.join(dir, 'dist'),
      apiUrl: 'https://api.helix.test',
      allowSrc: true,
    });
    await new Promise<void>((resolve) => dev.listen(0, '127.0.0.1', resolve));
    try {
      const devOrigin = `http://127.0.0.1:${(dev.address() as AddressInfo).port}`;
      const devHtml = await (await fetch(`${devOrigin}/?src=x.glb`)).text();
      expect(devHtml).toContain('<meta name="helix-allow-src" content="true" />');
      expect(devHtml).toContain('<meta name="helix-api" content="https://api.helix.test" />');
      expect(await (await fetch(`${devOrigin}/config.json`)).json()).toEqual({
        apiUrl: 'https://api.helix.test',
        allowSrc: true,
      });
    } finally {
      await new Promise((resolve) => dev.close(resolve));
    }
  });

  it('serves hashed assets immutable and gzipped when accepted', async () => {
    // Raw http.get: fetch would transparently decompress.
    const { status, headers, body } = await new Promise<{
      status: number;
      headers: http.IncomingHttpHeaders;
      body: Buffer;
    }>((resolve, reject) => {
      http
        .get(`${origin}/assets/app-abc123.js`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    });
    expect(status).toBe(200);
    expect(headers['cache-control']).toContain('immutable');
    expect(headers['content-type']).toMatch(/javascript/);
    expect(headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(body).toString().startsWith('console.log(1);')).toBe(true);
  });

  it('answers 304 to a matching ETag', async () => {
    const first = await fetch(`${origin}/assets/app-abc123.js`);
    const etag = first.headers.get('etag')!;
    const again = await fetch(`${origin}/assets/app-abc123.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('serves models with CORS and the glTF content type', async () => {
    const res = await fetch(`${origin}/models/a.glb`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('model/gltf-binary');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect((await fetch(`${origin}/models/missing.glb`)).status).toBe(404);
  });

  it('falls back to index.html for app paths, 404 for missing files, never escapes the root', async () => {
    expect((await fetch(`${origin}/embed/some-token`)).status).toBe(200);
    expect((await fetch(`${origin}/missing.js`)).status).toBe(404);
    for (const p of ['/..%2fsecret.txt', '/%2e%2e/secret.txt', '/models/..%2f..%2fsecret.txt']) {
      const res = await fetch(origin + p);
      expect(await res.text()).not.toBe('secret');
    }
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    expect((await fetch(`${origin}/`, { method: 'POST' })).status).toBe(405);
  });
});
