import {
  notifyManager,
  type Query,
  type QueryFunctionContext,
  type QueryKey,
  type UseQueryResult,
} from '@tanstack/react-query';
import {
  experimental_createQueryPersister,
  type AsyncStorage,
  type PersistedQuery,
} from '@tanstack/react-query-persist-client';
import { failureKind } from '@helix/shared/schemas/outbox';
import { ApiError } from '../api/api-error';
import { appStore, sessionUserAtom } from '../session/session.atoms';
import { openOfflineDb } from './open-db';

/**
 * The offline copy of the pages meant for offline use (lists, branding): each such query's last answer
 * persisted in IndexedDB (the `snapshots` store of offline-db.ts) by TanStack Query's per-query
 * persister, under the signed-in user (signing out clears it: user-data.ts). Every answer is saved;
 * when the server cannot be reached, a query with nothing in memory takes its saved answer and the page
 * shows it with "Offline: showing what was saved at {time}", the time being the query's dataUpdatedAt.
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
    const db = await openOfflineDb();
    if (!db || userId === null) return undefined;
    const row = await db.snapshots.get(rowKey(userId, key)).catch(() => undefined);
    return row?.data as PersistedQuery | undefined;
  },
  async setItem(key, value) {
    const userId = currentUserId();
    const db = await openOfflineDb();
    if (!db || userId === null) return;
    await db.snapshots
      .put({ key: rowKey(userId, key), userId, name: key, data: value, savedAt: value.state.dataUpdatedAt })
      .catch(() => undefined);
  },
  async removeItem(key) {
    const userId = currentUserId();
    const db = await openOfflineDb();
    if (!db || userId === null) return;
    await db.snapshots.delete(rowKey(userId, key)).catch(() => undefined);
  },
};

const offlinePersister = experimental_createQueryPersister<PersistedQuery>({
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
  refetchOnRestore: false,
});

/** A saved answer as the library keeps it (buster and age checked), or null. */
const savedAnswer = (queryHash: string) =>
  new Promise<PersistedQuery | null>((resolve) => {
    void offlinePersister.retrieveQuery(queryHash, resolve).then(
      (data) => data === undefined && resolve(null),
      () => resolve(null),
    );
  });

/**
 * The server first, as online pages always did: its answer is saved; when it cannot be reached, the
 * saved answer becomes the query's data (with its time) and the failure its error, so the page shows
 * both (offlineSavedAt).
 */
async function serverThenSaved<T, K extends QueryKey>(
  queryFn: (context: QueryFunctionContext<K>) => T | Promise<T>,
  context: QueryFunctionContext<K>,
  query: Query,
): Promise<T> {
  try {
    const data = await queryFn(context);
    notifyManager.schedule(() => void offlinePersister.persistQuery(query).catch(() => undefined));
    return data;
  } catch (error) {
    if (query.state.data === undefined && isOfflineFailure(error) && !context.signal.aborted) {
      const saved = await savedAnswer(query.queryHash);
      if (saved) query.setState({ data: saved.state.data, dataUpdatedAt: saved.state.dataUpdatedAt });
    }
    throw error;
  }
}

/** The options that make a query one of the offline copies. */
export const offlineCopy = {
  persister: serverThenSaved,
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
