import type { QueryKey, UseQueryResult } from '@tanstack/react-query';
import {
  experimental_createQueryPersister,
  type AsyncStorage,
  type PersistedQuery,
} from '@tanstack/react-query-persist-client';
import { useEffect, useRef } from 'react';
import { failureKind } from '@helix/shared/schemas/outbox';
import { ApiError } from '../api/api-error';
import { appStore, sessionUserAtom } from '../session/session.atoms';
import { offlineDb } from './offline-db';

/**
 * The offline copy of the pages meant for offline use (lists, branding): each such query's last answer
 * persisted in IndexedDB (the `snapshots` store of offline-db.ts) by TanStack Query's per-query
 * persister, under the signed-in user (signing out clears it: user-data.ts). A query without data in
 * memory starts from its persisted answer and asks the server again at once; when the server cannot be
 * reached the page keeps showing that answer with "Offline: showing what was saved at {time}", the
 * time being the query's dataUpdatedAt.
 *
 * The buster is the shape of the answers kept: bumped when they change (v3: a query's own state), so
 * an answer saved by an older app, which the pages would misread, is never shown.
 */
const BUSTER = 'v3';

const currentUserId = () => appStore.get(sessionUserAtom)?.id ?? null;
const rowKey = (userId: number, key: string) => `${userId}:${key}`;

/** IndexedDB through Dexie, per user; without a user or IndexedDB nothing is kept. */
const storage: AsyncStorage<PersistedQuery> = {
  async getItem(key) {
    const userId = currentUserId();
    const db = offlineDb();
    if (!db || userId === null) return undefined;
    const row = await db.snapshots.get(rowKey(userId, key)).catch(() => undefined);
    return row?.data as PersistedQuery | undefined;
  },
  async setItem(key, value) {
    const userId = currentUserId();
    const db = offlineDb();
    if (!db || userId === null) return;
    await db.snapshots
      .put({ key: rowKey(userId, key), userId, name: key, data: value, savedAt: value.state.dataUpdatedAt })
      .catch(() => undefined);
  },
  async removeItem(key) {
    const userId = currentUserId();
    const db = offlineDb();
    if (!db || userId === null) return;
    await db.snapshots.delete(rowKey(userId, key)).catch(() => undefined);
  },
};

export const offlinePersister = experimental_createQueryPersister<PersistedQuery>({
  storage,
  buster: BUSTER,
  // Kept until the next answer or sign-out, however old (the notice says when it was saved).
  maxAge: Infinity,
  prefix: 'query',
  // Only the answer and when it came are kept (IndexedDB clones them as they are).
  serialize: (persisted) => ({
    ...persisted,
    state: {
      ...persisted.state,
      error: null,
      fetchFailureReason: null,
      fetchMeta: null,
      fetchStatus: 'idle',
    },
  }),
  deserialize: (stored) => stored,
  // The page asks again itself (useAskAfterRestore), where a failure is the query's state to show.
  refetchOnRestore: false,
});

/** The options that make a query one of the offline copies. */
export const offlineCopy = {
  persister: offlinePersister.persisterFn,
  meta: { offline: true },
} as const;

/** Keeps a query's answer set by hand (after a save) as its offline copy. */
export const persistAnswer = (
  queryKey: QueryKey,
  client: Parameters<typeof offlinePersister.persistQueryByKey>[1],
) => void offlinePersister.persistQueryByKey(queryKey, client).catch(() => undefined);

/** A failure that means the server could not be reached (network, 5xx), not a refusal. */
export function isOfflineFailure(error: unknown): boolean {
  return (
    !(error instanceof ApiError) || failureKind({ status: error.statusCode, code: error.code }) === 'retry'
  );
}

/**
 * When the page shows a saved answer because the server could not be reached: that answer's time
 * (the query's dataUpdatedAt); null when it shows the server's answer of now, or nothing.
 */
export function offlineSavedAt(result: Pick<UseQueryResult, 'data' | 'isError' | 'error' | 'dataUpdatedAt'>) {
  return result.isError && result.data !== undefined && isOfflineFailure(result.error)
    ? result.dataUpdatedAt
    : null;
}

/**
 * A query restored from its offline copy asks the server at once (the copy is shown meanwhile): an
 * answer older than the component, not being asked for again, is asked for once more.
 */
export function useAskAfterRestore(
  result: Pick<UseQueryResult, 'isSuccess' | 'isFetching' | 'isStale' | 'dataUpdatedAt' | 'refetch'>,
) {
  const mountedAt = useRef(Date.now());
  const asked = useRef(false);
  const { isSuccess, isFetching, isStale, dataUpdatedAt, refetch } = result;
  useEffect(() => {
    // (A server-rendered page's answers are fresh, not stale: they are not asked for again.)
    if (asked.current || !isSuccess || isFetching || !isStale || dataUpdatedAt >= mountedAt.current) return;
    asked.current = true;
    void refetch();
  }, [isSuccess, isFetching, isStale, dataUpdatedAt, refetch]);
}
