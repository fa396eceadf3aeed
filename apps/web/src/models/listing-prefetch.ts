import { hashKey } from '@tanstack/react-query';
import { DEFAULT_MODEL_SORT } from '@helix/shared/schemas/model';
import { queryClient } from '../api/query-client';
import { readApiToken, readUserCookie } from '../session/cookies';
import { modelListingQuery } from './listing-query';
import { modelPageAbilities } from './model-permissions';

/** Cards in the first rows of the grid: their thumbnails load at once, the rest lazily. */
export const EAGER_THUMBNAILS = 4;

/** The query the early request below filled, until the grid's first mount takes it. */
let prefetched: string | null = null;

/**
 * Asks for the grid's first listing (no search, default sort) into the query client as soon as the
 * models page's code has loaded, in parallel with the start-up session refresh the route guard waits
 * for, instead of after it; then warms the first thumbnails, the page's largest paint. Only with a
 * session cookie whose user may list models (the server still checks; a refusal is the query's
 * error), and never over a page the server rendered (it brings the answer in its query state).
 */
export function prefetchFirstListing(): void {
  // The cookies, not the session atoms: src/boot.ts may load this page before the app has read them.
  if (
    prefetched !== null ||
    // In Node (the server render) nothing is asked.
    typeof document === 'undefined' ||
    document.getElementById('root')?.dataset.serverRendered ||
    !readApiToken() ||
    !modelPageAbilities(readUserCookie().user ?? null).list
  )
    return;
  const first = modelListingQuery('', DEFAULT_MODEL_SORT);
  prefetched = hashKey(first.queryKey);
  void queryClient.fetchQuery(first).then(
    (listing) => {
      for (const model of listing.models.slice(0, EAGER_THUMBNAILS)) {
        if (!model.thumbnail) continue;
        const image = new Image();
        image.fetchPriority = 'high';
        image.src = model.thumbnail;
      }
    },
    () => undefined,
  );
}

/**
 * Whether the grid's mount should ask again (its `refetchOnMount`): not for the first listing asked
 * above, whose answer is as new as the mount's own would be (nor for React's StrictMode remount in the
 * same commit); every later mount does.
 */
export function refetchOnMount(query: { queryHash: string }): boolean {
  if (prefetched === null || query.queryHash !== prefetched) return true;
  setTimeout(() => {
    prefetched = '';
  }, 0);
  return false;
}
