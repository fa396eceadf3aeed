/**
 * The service worker's one run-time route (vite.config.ts, workbox runtimeCaching): images under
 * /api/files/images/ (model thumbnails, branding) are answered from the pinned-models cache when a
 * pinned model keeps them, else from the network as before. The worker only reads that cache; the page
 * writes and deletes it (src/offline/pinned-cache.ts), so what is kept is exactly what is pinned.
 *
 * Workbox copies these functions into the worker as source text: they must not refer to anything
 * outside themselves, hence the cache name written out (a test checks it is PINNED_CACHE).
 */
export const pinnedFilesRoute = {
  urlPattern: ({ url, sameOrigin }: { url: URL; sameOrigin: boolean }) =>
    sameOrigin && url.pathname.startsWith('/api/files/images/'),
  handler: async ({ request }: { request: Request }): Promise<Response> =>
    (await caches.match(request.url, { cacheName: 'helix-pinned-v1' })) ?? fetch(request),
};
