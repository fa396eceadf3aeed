import type { OfflineDb } from './offline-db';

/*
 * The device's database (./offline-db.ts, Dexie) loaded on first use: the modules every signed-in
 * page loads (the API calls' outbox, the header, the model grid's pins and cache) reach it through
 * these, so no page's first load carries Dexie (about 30 kB gzip) or evaluates it before hydration.
 */

/** The app's IndexedDB database, or null where IndexedDB is unavailable. */
export const openOfflineDb = async (): Promise<OfflineDb | null> =>
  (await import('./offline-db')).offlineDb();

/** Dexie's liveQuery (a query kept live across this tab and others), loaded with the database. */
export const loadLiveQuery = async () => (await import('dexie')).liveQuery;

/** Forgets one user's cached data on the device (./offline-db.ts, clearUserData). */
export const clearUserData = async (userId: number): Promise<void> =>
  (await import('./offline-db')).clearUserData(userId);
