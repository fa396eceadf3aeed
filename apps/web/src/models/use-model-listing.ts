import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { MSG } from '@helix/shared';
import type { ModelSort } from '@helix/shared/schemas/model';
import { ApiError } from '../api/api-error';
import { readTenant } from '../session/cookies';
import { useSessionUser } from '../session/use-session';
import { toastError } from '../ui/notify';
import { cacheKey, readCachedListing, writeCachedListing, type CachedListing } from './model-cache';
import { filterAndSort, upsertModel } from './model-listing';
import { refetchOnMount } from './listing-prefetch';
import { MODEL_LISTINGS_KEY, modelListingQuery, type ListingAnswer } from './listing-query';
import type { Model, ModelViews, UserStats } from './models.api';
import { useDebouncedValue } from './use-debounced-value';

const SEARCH_DEBOUNCE_MS = 300;

export interface ModelListingView {
  models: Model[];
  views: ModelViews | null;
  users: UserStats[];
  /** Nothing to show yet: the first answer (and the cache) are still on their way. */
  loading: boolean;
  /** A request is under way (the shown list may be the cache or an older answer). */
  refreshing: boolean;
  /** The last request failed. */
  failed: boolean;
  /** The list shown is the device's saved copy, not a server answer. */
  fromCache: boolean;
  /** When the saved copy shown was saved (ms since epoch), null for a server answer. */
  savedAt: number | null;
  reload(): void;
  /** After a save: the card is replaced or added, the list re-sorted, then refreshed from the server. */
  saved(model: Model): void;
  removed(id: number): void;
}

/**
 * The model grid's data: GET /model/all for the current search and sort, a TanStack query
 * (./listing-query.ts; a server-rendered home hands the first one over in its query state), with the
 * last full listing from IndexedDB shown until the server answers (or when it cannot). A server answer
 * always wins; while another search or sort is asked, or when asking fails, the last answer is shown
 * filtered and sorted here.
 */
export function useModelListing(search: string, sort: ModelSort, enabled: boolean): ModelListingView {
  const user = useSessionUser();
  const userId = user?.id ?? null;
  const key = userId !== null ? cacheKey(readTenant(), userId) : null;
  const serverSearch = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const queryClient = useQueryClient();
  const query = useQuery({
    ...modelListingQuery(serverSearch, sort),
    enabled,
    placeholderData: keepPreviousData,
    refetchOnMount,
  });
  // The last answer shown stays when the next one fails (the query then holds only its error).
  const [last, setLast] = useState<ListingAnswer | undefined>(query.data);
  if (query.data && query.data !== last) setLast(query.data);
  const answer = query.data ?? last;
  const [cached, setCached] = useState<CachedListing | null>(null);

  // The device's copy is only shown without an answer (offline): a page that came with the server's
  // answer does not read it, nor render the whole grid again when the read resolves after hydration.
  const answered = answer !== undefined;
  useEffect(() => {
    if (!key || !enabled || answered) return;
    let live = true;
    void readCachedListing(key).then((entry) => {
      if (live) setCached(entry);
    });
    return () => {
      live = false;
    };
  }, [key, enabled, answered]);

  // A full listing from the server is the device's offline copy.
  const fresh = query.isPlaceholderData ? undefined : query.data;
  useEffect(() => {
    if (fresh && key && userId !== null && fresh.search === '')
      void writeCachedListing(key, userId, fresh.models, fresh.views);
  }, [fresh, key, userId]);

  // A 401 already opened the popup or signed the user out; a second message would only confuse.
  const { error, errorUpdatedAt } = query;
  useEffect(() => {
    if (error && !(error instanceof ApiError && error.statusCode === 401)) toastError(MSG.failedLoadModels);
  }, [error, errorUpdatedAt]);

  const reload = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: MODEL_LISTINGS_KEY }),
    [queryClient],
  );

  const saved = useCallback(
    (model: Model) => {
      const upsert = (a: ListingAnswer | undefined) =>
        a ? { ...a, models: upsertModel(a.models, model, a.search, a.sort) } : a;
      queryClient.setQueriesData<ListingAnswer>({ queryKey: MODEL_LISTINGS_KEY }, upsert);
      setLast(upsert);
      reload();
    },
    [queryClient, reload],
  );

  const removed = useCallback(
    (id: number) => {
      const without = (a: ListingAnswer | undefined) =>
        a ? { ...a, models: a.models.filter((m) => m.id !== id) } : a;
      queryClient.setQueriesData<ListingAnswer>({ queryKey: MODEL_LISTINGS_KEY }, without);
      setLast(without);
      setCached((c) => (c ? { ...c, models: c.models.filter((m) => m.id !== id) } : c));
      reload();
    },
    [queryClient, reload],
  );

  const pending = query.isFetching;
  const failed = query.isError;
  return useMemo(() => {
    const current = search.trim();
    let models: Model[] = [];
    let fromCache = false;
    if (answer) {
      models =
        answer.search === current && answer.sort === sort
          ? answer.models
          : filterAndSort(answer.models, current, sort);
    } else if (cached) {
      models = filterAndSort(cached.models, current, sort);
      fromCache = true;
    }
    return {
      models,
      views: answer?.views ?? cached?.views ?? null,
      users: answer?.users ?? [],
      loading: !answer && !cached && (pending || query.isPending) && enabled,
      refreshing: pending,
      failed,
      fromCache,
      savedAt: fromCache ? (cached?.savedAt ?? null) : null,
      reload,
      saved,
      removed,
    };
  }, [answer, cached, search, sort, pending, failed, enabled, reload, saved, removed, query.isPending]);
}
