import { describe, expect, it, vi } from 'vitest';
import {
  allowSrcFromEnv,
  apiUrlFromEnv,
  DEFAULT_API_URL,
  injectAllowSrcMeta,
  injectApiMeta,
  normaliseApiUrl,
  readAllowSrc,
  readApiUrl,
} from './api-config.ts';

const docWith = (content: string | null) =>
  ({
    querySelector: () => (content === null ? null : { content }),
  }) as unknown as Pick<Document, 'querySelector'>;

describe('API origin configuration', () => {
  it('takes API_URL, else PUBLIC_URL, else the default, as an origin', () => {
    expect(apiUrlFromEnv({ API_URL: 'https://api.test/', PUBLIC_URL: 'https://other.test' })).toBe(
      'https://api.test',
    );
    expect(apiUrlFromEnv({ PUBLIC_URL: 'https://portal.test:8443/app' })).toBe('https://portal.test:8443');
    expect(apiUrlFromEnv({ API_URL: '', PUBLIC_URL: '' })).toBe(DEFAULT_API_URL);
    expect(apiUrlFromEnv({})).toBe('http://localhost:3000');
    expect(() => apiUrlFromEnv({ API_URL: 'ftp://x' })).toThrow(/http\(s\)/);
    expect(normaliseApiUrl('not a url')).toBeNull();
  });

  it('fills the helix-api meta, or inserts one, escaping the value', () => {
    const html = '<html><head><meta name="helix-api" content="" /><title>v</title></head></html>';
    expect(injectApiMeta(html, 'https://api.test')).toBe(
      '<html><head><meta name="helix-api" content="https://api.test" /><title>v</title></head></html>',
    );
    expect(injectApiMeta('<head></head>', 'https://a.test/"x')).toBe(
      '<head><meta name="helix-api" content="https://a.test/&quot;x" /></head>',
    );
    expect(injectApiMeta('<!doctype html><title>v</title>', 'https://a.test')).toBe(
      '<!doctype html><meta name="helix-api" content="https://a.test" /><title>v</title>',
    );
  });

  it('reads the meta in the page, else ./config.json, else the default', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(
      async () => new Response(JSON.stringify({ apiUrl: 'https://cfg.test' }), { status: 200 }),
    );
    expect(await readApiUrl(docWith('https://meta.test'), fetch, 'https://viewer.test/')).toBe(
      'https://meta.test',
    );
    expect(fetch).not.toHaveBeenCalled();
    expect(await readApiUrl(docWith(''), fetch, 'https://viewer.test/?model=x')).toBe('https://cfg.test');
    expect(fetch.mock.calls[0]![0]).toBe('https://viewer.test/config.json');
    const missing = vi.fn<typeof globalThis.fetch>(async () => new Response('nope', { status: 404 }));
    expect(await readApiUrl(docWith(null), missing, 'https://viewer.test/')).toBe(DEFAULT_API_URL);
    const offline = vi.fn<typeof globalThis.fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await readApiUrl(docWith(null), offline, 'https://viewer.test/')).toBe(DEFAULT_API_URL);
  });
});

describe('allow-src switch (VIEWER_ALLOW_SRC)', () => {
  it('is off by default; true/1 turn it on; anything else is an error', () => {
    expect(allowSrcFromEnv({})).toBe(false);
    expect(allowSrcFromEnv({ VIEWER_ALLOW_SRC: '' })).toBe(false);
    expect(allowSrcFromEnv({ VIEWER_ALLOW_SRC: 'false' })).toBe(false);
    expect(allowSrcFromEnv({ VIEWER_ALLOW_SRC: '0' })).toBe(false);
    expect(allowSrcFromEnv({ VIEWER_ALLOW_SRC: 'true' })).toBe(true);
    expect(allowSrcFromEnv({ VIEWER_ALLOW_SRC: ' TRUE ' })).toBe(true);
    expect(allowSrcFromEnv({ VIEWER_ALLOW_SRC: '1' })).toBe(true);
    expect(() => allowSrcFromEnv({ VIEWER_ALLOW_SRC: 'yes please' })).toThrow(/VIEWER_ALLOW_SRC/);
  });

  it('fills the helix-allow-src meta', () => {
    const html = '<head><meta name="helix-allow-src" content="" /></head>';
    expect(injectAllowSrcMeta(html, true)).toBe(
      '<head><meta name="helix-allow-src" content="true" /></head>',
    );
    expect(injectAllowSrcMeta(html, false)).toBe(
      '<head><meta name="helix-allow-src" content="false" /></head>',
    );
    expect(injectAllowSrcMeta('<head></head>', false)).toBe(
      '<head><meta name="helix-allow-src" content="false" /></head>',
    );
  });

  it('reads the meta in the page, else allowSrc: true in ./config.json, else refuses', async () => {
    const allowing = vi.fn<typeof globalThis.fetch>(
      async () =>
        new Response(JSON.stringify({ apiUrl: 'https://cfg.test', allowSrc: true }), { status: 200 }),
    );
    expect(await readAllowSrc(docWith('true'), allowing, 'https://viewer.test/')).toBe(true);
    expect(await readAllowSrc(docWith('false'), allowing, 'https://viewer.test/')).toBe(false);
    expect(allowing).not.toHaveBeenCalled();
    expect(await readAllowSrc(docWith(''), allowing, 'https://viewer.test/?src=x.glb')).toBe(true);
    expect(allowing.mock.calls[0]![0]).toBe('https://viewer.test/config.json');
    const silent = vi.fn<typeof globalThis.fetch>(
      async () => new Response(JSON.stringify({ apiUrl: 'https://cfg.test' }), { status: 200 }),
    );
    expect(await readAllowSrc(docWith(null), silent, 'https://viewer.test/')).toBe(false);
    const truthy = vi.fn<typeof globalThis.fetch>(
      async () => new Response(JSON.stringify({ allowSrc: 'true' }), { status: 200 }),
    );
    expect(await readAllowSrc(docWith(null), truthy, 'https://viewer.test/')).toBe(false);
    const missing = vi.fn<typeof globalThis.fetch>(async () => new Response('nope', { status: 404 }));
    expect(await readAllowSrc(docWith(null), missing, 'https://viewer.test/')).toBe(false);
    const offline = vi.fn<typeof globalThis.fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await readAllowSrc(docWith(null), offline, 'https://viewer.test/')).toBe(false);
  });
});
