import Dexie, { type EntityTable } from 'dexie';
import { appStore, sessionUserAtom } from '../session/session.atoms';
import type { Model, ModelViews } from './models.api';

/**
 * The last model listing a user saw, kept in IndexedDB so the grid has something to show while the
 * server answers or while offline. It is a cache: a server answer always replaces it.
 */
export interface CachedListing {
  /** `${tenant}:${userId}`: one entry per person, so a shared browser never mixes two catalogues. */
  key: string;
  models: Model[];
  views: ModelViews | null;
  savedAt: number;
}

export const cacheKey = (tenant: string, userId: number): string => `${tenant}:${userId}`;

/** How long a cached listing is worth showing; older ones are ignored (and overwritten later). */
export const CACHE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export const isFresh = (entry: Pick<CachedListing, 'savedAt'>, now: number): boolean =>
  now - entry.savedAt <= CACHE_MAX_AGE_MS;

class ModelCacheDb extends Dexie {
  listings!: EntityTable<CachedListing, 'key'>;

  constructor() {
    super('helix-models');
    this.version(1).stores({ listings: 'key, savedAt' });
  }
}

let db: ModelCacheDb | null = null;

/** IndexedDB may be missing or refused (private windows, tests); the cache is then simply absent. */
function database(): ModelCacheDb | null {
  if (db) return db;
  if (typeof indexedDB === 'undefined') return null;
  try {
    db = new ModelCacheDb();
  } catch {
    db = null;
  }
  return db;
}

export async function readCachedListing(key: string): Promise<CachedListing | null> {
  try {
    const entry = await database()?.listings.get(key);
    return entry && isFresh(entry, Date.now()) ? entry : null;
  } catch {
    return null;
  }
}

export async function writeCachedListing(
  key: string,
  models: Model[],
  views: ModelViews | null,
): Promise<void> {
  try {
    await database()?.listings.put({ key, models, views, savedAt: Date.now() });
  } catch {
    // A full or blocked store only costs the offline copy.
  }
}

export async function clearModelCache(): Promise<void> {
  try {
    await database()?.listings.clear();
  } catch {
    // Nothing to clear.
  }
}

// Signing out (logout, 401, another login) forgets the cached catalogue of this browser.
appStore.sub(sessionUserAtom, () => {
  if (!appStore.get(sessionUserAtom)) void clearModelCache();
});
