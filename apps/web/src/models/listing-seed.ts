import { DEFAULT_MODEL_SORT, type ModelSort } from '@helix/shared/schemas/model';
import type { ModelListing } from './models.api';

/** The first listing the page came with (a drawn home page), known synchronously. */
let seeded: ModelListing | null = null;

const isFirstQuery = (query: { search: string; sort: ModelSort }): boolean =>
  query.search === '' && query.sort === DEFAULT_MODEL_SORT;

/**
 * The grid's first answer is already known: the page was drawn with it (src/prerender/home-page.server.tsx
 * on the server, and the page's data in the browser, src/main.tsx). The grid starts with it and does not
 * ask again. Returns a function that forgets it. No imports of the API: src/main.tsx uses this.
 */
export function seedFirstListing(listing: ModelListing): () => void {
  seeded = listing;
  return () => {
    seeded = null;
  };
}

/** The seeded first listing for this query, without taking it (the grid's first render). */
export const peekSeededListing = (query: { search: string; sort: ModelSort }): ModelListing | null =>
  seeded && isFirstQuery(query) ? seeded : null;

/** The seeded first listing for this query, once (then the grid asks the server as usual). */
export function takeSeededListing(query: { search: string; sort: ModelSort }): ModelListing | null {
  const hit = peekSeededListing(query);
  seeded = null;
  return hit;
}
