import { ModelView } from '@helix/shared/schemas/model';
import { appStore, sessionUserAtom } from '../session/session.atoms';
import { openOfflineDb } from '../offline/open-db';
import type { Model, ModelViews } from './models.api';

/**
 * The last model listing a user saw, kept in IndexedDB so the grid has something to show while the
 * server answers or while offline. It is a cache: a server answer always replaces it.
 */
export interface CachedListing {
  /** `${tenant}:${userId}`: one entry per person, so a shared browser never mixes two catalogues. */
  key: string;
  userId: number;
  models: Model[];
  views: ModelViews | null;
  savedAt: number;
}

export const cacheKey = (tenant: string, userId: number): string => `${tenant}:${userId}`;

/** How long a cached listing is worth showing; older ones are ignored (and overwritten later). */
const CACHE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

const isFresh = (entry: Pick<CachedListing, 'savedAt'>, now: number): boolean =>
  now - entry.savedAt <= CACHE_MAX_AGE_MS;

export async function readCachedListing(key: string): Promise<CachedListing | null> {
  try {
    const entry = (await (await openOfflineDb())?.listings.get(key)) as CachedListing | undefined;
    // A listing saved by an older app (models without their abilities, say) is not shown.
    const current = entry && ModelView.array().safeParse(entry.models).success;
    return entry && current && isFresh(entry, Date.now()) ? entry : null;
  } catch {
    return null;
  }
}

export async function writeCachedListing(
  key: string,
  userId: number,
  models: Model[],
  views: ModelViews | null,
): Promise<void> {
  try {
    await (await openOfflineDb())?.listings.put({ key, userId, models, views, savedAt: Date.now() });
  } catch {
    // A full or blocked store only costs the offline copy.
  }
}

async function clearModelCache(): Promise<void> {
  try {
    await (await openOfflineDb())?.listings.clear();
  } catch {
    // Nothing to clear.
  }
}

// Signing out (logout, 401, another login) forgets the cached catalogue of this browser.
appStore.sub(sessionUserAtom, () => {
  if (!appStore.get(sessionUserAtom)) void clearModelCache();
});
