import { queryOptions } from '@tanstack/react-query';
import type { ModelSort } from '@helix/shared/schemas/model';
import { fetchModels, type ModelListing } from './models.api';

/** One answer of GET /model/all, with the search and sort it answers (the grid filters an older one). */
export interface ListingAnswer extends ModelListing {
  search: string;
  sort: ModelSort;
}

/** Every listing of the grid, whatever its search and sort (what a save or a delete refreshes). */
export const MODEL_LISTINGS_KEY = ['models', 'listing'] as const;

/**
 * The grid's query for a search and sort (src/models/use-model-listing.ts); a server render of the
 * home fills the first one, no search and the default sort, under the same key
 * (src/server-render/route-prefetch.ts). The query cache is the signed-in user's (cleared when the
 * user changes: src/offline/user-data.ts).
 */
export const modelListingQuery = (search: string, sort: ModelSort) =>
  queryOptions({
    queryKey: [...MODEL_LISTINGS_KEY, { search, sort }],
    queryFn: async ({ signal }): Promise<ListingAnswer> => ({
      search,
      sort,
      ...(await fetchModels({ search, sort }, signal)),
    }),
  });
