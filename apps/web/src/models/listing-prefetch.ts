import { DEFAULT_MODEL_SORT, type ModelSort } from '@helix/shared/schemas/model';
import { readApiToken, readTenant, readUserCookie } from '../session/cookies';
import { takeSeededListing } from './listing-seed';
import { modelPageAbilities } from './model-permissions';
import { fetchModels, type ModelListing } from './models.api';

/** Cards in the first rows of the grid: their thumbnails load at once, the rest lazily. */
export const EAGER_THUMBNAILS = 4;

let prefetched: { tenant: string; answer: Promise<ModelListing> } | null = null;

/**
 * Asks for the grid's first listing (no search, default sort) as soon as the models page's code has
 * loaded, in parallel with the start-up session refresh the route guard waits for, instead of after
 * it; then warms the first thumbnails, the page's largest paint. Only with a session cookie whose user
 * may list models (the server still checks; a refusal is handled where the answer is used).
 */
export function prefetchFirstListing(): void {
  // The cookies, not the session atoms: src/boot.ts may load this page before the app has read them.
  if (
    prefetched ||
    // In Node (the server render) nothing is asked; a server-rendered home brings the answer itself
    // (src/server-render/adopt.ts seeds it).
    typeof document === 'undefined' ||
    document.getElementById('root')?.dataset.prerendered === 'home' ||
    !readApiToken() ||
    !modelPageAbilities(readUserCookie().user ?? null).list
  )
    return;
  const answer = fetchModels({ sort: DEFAULT_MODEL_SORT });
  prefetched = { tenant: readTenant(), answer };
  answer.then(
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
 * The seeded (./listing-seed.ts) or prefetched answer, once, when it is the one asked for (else the
 * caller fetches its own).
 */
export function takePrefetchedListing(query: {
  search: string;
  sort: ModelSort;
}): Promise<ModelListing> | null {
  const seeded = takeSeededListing(query);
  if (seeded) return Promise.resolve(seeded);
  const hit = prefetched;
  prefetched = null;
  if (!hit || query.search !== '' || query.sort !== DEFAULT_MODEL_SORT || hit.tenant !== readTenant()) {
    return null;
  }
  return hit.answer;
}
