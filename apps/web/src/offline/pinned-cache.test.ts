import { afterEach, describe, expect, it, vi } from 'vitest';
// The very function the generated service worker runs on activation (cleanupOutdatedCaches: true).
import { deleteOutdatedCaches } from 'workbox-precaching/utils/deleteOutdatedCaches.js';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { OFFLINE_ID_PATTERN, OFFLINE_VIEW_KEY_PATTERN } from '@helix/shared/schemas/pinned-model';
import { pinnedFilesRoute } from '../pwa/pinned-files-route';
import { deviceId } from './device-id';
import { PINNED_CACHE, sweep } from './pinned-cache';
import { isRetryable, newViewKey } from './queued-views';
import { ApiError } from '../api/api-error';

const SCOPE = 'https://helix.example/';

/** A CacheStorage with named caches of URL -> body, enough for the code under test. */
function fakeCaches(contents: Record<string, Record<string, string>>) {
  const store = new Map(
    Object.entries(contents).map(([name, entries]) => [name, new Map(Object.entries(entries))]),
  );
  const cacheOf = (name: string) => {
    const entries = store.get(name) ?? new Map<string, string>();
    store.set(name, entries);
    return {
      keys: async () => [...entries.keys()].map((url) => ({ url })),
      delete: async (request: { url: string }) => entries.delete(request.url),
      match: async (url: string) => (entries.has(url) ? new Response(entries.get(url)) : undefined),
    };
  };
  return {
    store,
    keys: async () => [...store.keys()],
    delete: async (name: string) => store.delete(name),
    open: async (name: string) => cacheOf(name),
    match: async (url: string, options?: { cacheName?: string }) =>
      options?.cacheName ? cacheOf(options.cacheName).match(url) : undefined,
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the pinned models cache and service worker updates', () => {
  it('is not a precache name: a new version deletes the old precache and keeps the pinned files', async () => {
    expect(PINNED_CACHE).not.toContain('-precache-');
    const caches = fakeCaches({
      [`workbox-precache-v2-${SCOPE}`]: { [`${SCOPE}index.html`]: 'new shell' },
      [`workbox-precache-${SCOPE}`]: { [`${SCOPE}index.html`]: 'old shell' },
      [PINNED_CACHE]: { [`${SCOPE}offline/pinned/demo/1/2-v1.glb`]: 'glb' },
    });
    vi.stubGlobal('self', { caches, registration: { scope: SCOPE } });
    const deleted = await deleteOutdatedCaches(`workbox-precache-v2-${SCOPE}`);
    expect(deleted).toEqual([`workbox-precache-${SCOPE}`]);
    expect([...caches.store.keys()].sort()).toEqual([PINNED_CACHE, `workbox-precache-v2-${SCOPE}`].sort());
  });

  it("the worker's image route reads that very cache, and falls back to the network", async () => {
    // Workbox copies the handler into the worker as text: the name must be written out in it.
    expect(pinnedFilesRoute.handler.toString()).toMatch(new RegExp(`['"]${PINNED_CACHE}['"]`));
    const thumb = `${SCOPE}api/files/images/thumbnail-a.webp`;
    vi.stubGlobal('caches', fakeCaches({ [PINNED_CACHE]: { [thumb]: 'kept' } }));
    const network = vi.fn(async () => new Response('network'));
    vi.stubGlobal('fetch', network);
    const kept = await pinnedFilesRoute.handler({ request: new Request(thumb) });
    expect(await kept.text()).toBe('kept');
    expect(network).not.toHaveBeenCalled();
    const other = await pinnedFilesRoute.handler({
      request: new Request(`${SCOPE}api/files/images/logo-b.png`),
    });
    expect(await other.text()).toBe('network');

    const matches = (href: string, sameOrigin = true) =>
      pinnedFilesRoute.urlPattern({ url: new URL(href), sameOrigin });
    expect(matches(thumb)).toBe(true);
    expect(matches(`${SCOPE}api/t/demo/model/all`)).toBe(false);
    expect(matches('https://cdn.example/api/files/images/thumbnail-a.webp', false)).toBe(false);
  });

  it('sweep frees every kept file no pin references', async () => {
    const kept = { [`${SCOPE}a.glb`]: 'a', [`${SCOPE}b.glb`]: 'b', [`${SCOPE}thumb.webp`]: 't' };
    const caches = fakeCaches({ [PINNED_CACHE]: kept });
    vi.stubGlobal('caches', caches);
    expect(await sweep(new Set([`${SCOPE}a.glb`, `${SCOPE}thumb.webp`]))).toBe(1);
    expect([...caches.store.get(PINNED_CACHE)!.keys()].sort()).toEqual([
      `${SCOPE}a.glb`,
      `${SCOPE}thumb.webp`,
    ]);
  });
});

describe('queued offline views', () => {
  it('makes keys the server accepts, each different', () => {
    const keys = new Set(Array.from({ length: 100 }, newViewKey));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(OFFLINE_VIEW_KEY_PATTERN);
  });

  it('makes a device id the server accepts, the same for every call (an offline copy is bound to it)', () => {
    const id = deviceId();
    expect(id).toMatch(OFFLINE_ID_PATTERN);
    expect(deviceId()).toBe(id);
  });

  it('retries network failures, 5xx, 408, 429 and a key still running, as the outbox does; drops other refusals', () => {
    expect(isRetryable(ApiError.network(false))).toBe(true);
    expect(isRetryable(new ApiError(503, 'Service Unavailable', 'x'))).toBe(true);
    expect(isRetryable(new ApiError(429, 'Too Many Requests', 'x'))).toBe(true);
    expect(isRetryable(new ApiError(408, 'Request Timeout', 'x'))).toBe(true);
    expect(isRetryable(new TypeError('Failed to fetch'))).toBe(true);
    for (const status of [400, 403, 404, 409, 422]) {
      expect(isRetryable(new ApiError(status, 'Refused', 'x')), String(status)).toBe(false);
    }
    const running = new ApiError(409, 'Conflict', 'x');
    running.code = ERROR_CODES.idempotencyInProgress;
    expect(isRetryable(running)).toBe(true);
  });
});
