import { describe, expect, it, vi } from 'vitest';
import { apiUrlFromEnv, DEFAULT_API_URL, injectApiMeta, normaliseApiUrl, readApiUrl } from './api-config.ts';

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
