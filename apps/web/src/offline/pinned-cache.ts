/**
 * Cache Storage for models pinned for offline use: their .glb files, thumbnails and branding images.
 *
 * The name is not a Workbox precache name (those contain '-precache-' and are deleted by the service
 * worker's cleanup of outdated precaches on every update), so a deploy never frees pinned files.
 * Entries are written by the page, read by the page (the .glb, handed to the viewer) and by the
 * service worker (images, src/pwa/pinned-files-route.ts), and deleted by the page on unpin and sign-out.
 */
export const PINNED_CACHE = 'helix-pinned-v1';

export const cacheStorageAvailable = (): boolean => typeof caches !== 'undefined';

/** Keeps `blob` under `url` (absolute), with only the headers a reader needs (no Vary). */
export async function keep(url: string, blob: Blob): Promise<void> {
  const cache = await caches.open(PINNED_CACHE);
  await cache.put(
    url,
    new Response(blob, {
      headers: {
        'Content-Type': blob.type || 'application/octet-stream',
        'Content-Length': String(blob.size),
      },
    }),
  );
}

export async function readKept(url: string): Promise<Blob | null> {
  if (!cacheStorageAvailable()) return null;
  const response = await caches.match(url, { cacheName: PINNED_CACHE });
  return response ? response.blob() : null;
}

/** Deletes every kept entry whose URL is not in `inUse` (what the remaining pins reference). */
export async function sweep(inUse: ReadonlySet<string>): Promise<number> {
  if (!cacheStorageAvailable()) return 0;
  const cache = await caches.open(PINNED_CACHE);
  const stale = (await cache.keys()).filter((request) => !inUse.has(request.url));
  await Promise.all(stale.map((request) => cache.delete(request)));
  return stale.length;
}

/** Deletes the given kept files. */
export async function forget(urls: readonly string[]): Promise<void> {
  if (!cacheStorageAvailable() || urls.length === 0) return;
  const cache = await caches.open(PINNED_CACHE);
  await Promise.all(urls.map((url) => cache.delete(url)));
}
