import { useCallback, useEffect, useMemo, useState } from 'react';
import { MSG } from '@helix/shared';
import type { ModelSort } from '@helix/shared/schemas/model';
import { ApiError } from '../api/api-error';
import { readTenant } from '../session/cookies';
import { useSessionUser } from '../session/use-session';
import { toastError } from '../ui/notify';
import { cacheKey, readCachedListing, writeCachedListing, type CachedListing } from './model-cache';
import { filterAndSort, upsertModel } from './model-listing';
import { takePrefetchedListing } from './listing-prefetch';
import { peekSeededListing } from './listing-seed';
import { fetchModels, type Model, type ModelViews, type UserStats } from './models.api';
import { useDebouncedValue } from './use-debounced-value';

const SEARCH_DEBOUNCE_MS = 300;

interface Answer {
  search: string;
  sort: ModelSort;
  models: Model[];
  views: ModelViews | null;
  users: UserStats[];
}

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
 * The model grid's data: GET /model/all for the current search and sort, with the last full listing
 * from IndexedDB shown until the server answers (or when it cannot). A server answer always wins.
 */
export function useModelListing(search: string, sort: ModelSort, enabled: boolean): ModelListingView {
  const user = useSessionUser();
  const userId = user?.id ?? null;
  const key = userId !== null ? cacheKey(readTenant(), userId) : null;
  const serverSearch = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  // A drawn page's grid starts with the listing it was drawn with (./listing-seed.ts).
  const [answer, setAnswer] = useState<Answer | null>(() => {
    const seeded = peekSeededListing({ search: '', sort });
    return seeded ? { search: '', sort, ...seeded } : null;
  });
  const [cached, setCached] = useState<CachedListing | null>(null);
  const [pending, setPending] = useState(() => answer === null);
  const [failed, setFailed] = useState(false);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (!key || !enabled) return;
    let live = true;
    void readCachedListing(key).then((entry) => {
      if (live) setCached(entry);
    });
    return () => {
      live = false;
    };
  }, [key, enabled]);

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setPending(true);
    const request =
      takePrefetchedListing({ search: serverSearch, sort }) ??
      fetchModels({ search: serverSearch, sort }, controller.signal);
    request
      .then((listing) => {
        // The prefetched request cannot be aborted: a stale answer is dropped here.
        if (controller.signal.aborted) return;
        setAnswer({ search: serverSearch, sort, ...listing });
        setFailed(false);
        setPending(false);
        if (key && userId !== null && serverSearch === '')
          void writeCachedListing(key, userId, listing.models, listing.views);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setFailed(true);
        setPending(false);
        // A 401 already opened the popup or signed the user out; a second message would only confuse.
        if (!(error instanceof ApiError && error.statusCode === 401)) toastError(MSG.failedLoadModels);
      });
    return () => controller.abort();
  }, [serverSearch, sort, key, userId, enabled, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);

  const saved = useCallback(
    (model: Model) => {
      setAnswer((a) => (a ? { ...a, models: upsertModel(a.models, model, a.search, a.sort) } : a));
      reload();
    },
    [reload],
  );

  const removed = useCallback(
    (id: number) => {
      setAnswer((a) => (a ? { ...a, models: a.models.filter((m) => m.id !== id) } : a));
      setCached((c) => (c ? { ...c, models: c.models.filter((m) => m.id !== id) } : c));
      reload();
    },
    [reload],
  );

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
      loading: !answer && !cached && pending && enabled,
      refreshing: pending,
      failed,
      fromCache,
      savedAt: fromCache ? (cached?.savedAt ?? null) : null,
      reload,
      saved,
      removed,
    };
  }, [answer, cached, search, sort, pending, failed, enabled, reload, saved, removed]);
}
