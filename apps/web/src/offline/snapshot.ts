import { failureKind } from '@helix/shared/schemas/outbox';
import { ApiError } from '../api/api-error';
import { appStore, sessionUserAtom } from '../session/session.atoms';
import { offlineDb } from './offline-db';

/**
 * A listing page's last server answer, kept per user in the `snapshots` store. A server answer always
 * replaces it; when the server cannot be reached (network, 5xx) the page shows the snapshot with an
 * "Offline: showing what was saved at {time}" notice.
 */
export interface Loaded<T> {
  data: T;
  /** null: a fresh server answer; otherwise when the snapshot shown was saved (ms since epoch). */
  savedAt: number | null;
}

/**
 * The shape of the answers kept: bumped when they change (v2: each item carries its `abilities`), so
 * a snapshot saved by an older app, which the pages would misread, is never shown.
 */
const SNAPSHOT_SHAPE = 'v2';
const keyOf = (userId: number, name: string) => `${userId}:${SNAPSHOT_SHAPE}:${name}`;

export async function loadWithSnapshot<T>(name: string, fetcher: () => Promise<T>): Promise<Loaded<T>> {
  const userId = appStore.get(sessionUserAtom)?.id ?? null;
  const db = offlineDb();
  try {
    const data = await fetcher();
    if (db && userId !== null) {
      await db.snapshots
        .put({ key: keyOf(userId, name), userId, name, data, savedAt: Date.now() })
        .catch(() => undefined);
    }
    return { data, savedAt: null };
  } catch (error) {
    const offline =
      !(error instanceof ApiError) || failureKind({ status: error.statusCode, code: error.code }) === 'retry';
    if (!offline || !db || userId === null) throw error;
    const row = await db.snapshots.get(keyOf(userId, name)).catch(() => undefined);
    if (!row) throw error;
    return { data: row.data as T, savedAt: row.savedAt };
  }
}
