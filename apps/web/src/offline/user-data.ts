import { queryClient } from '../api/query-client';
import { appStore, sessionUserAtom } from '../session/session.atoms';
import { clearUserData, openOfflineDb } from './open-db';

/**
 * Whose data this device holds. Log Out clears the user's cached data and outbox (after the header's
 * warning about queued edits). A forced sign-out (session expired, logged in elsewhere) clears the
 * cached pages but keeps the outbox, so nothing is dropped silently: the same user signing in again
 * replays it. Another user signing in on the device clears the previous user's data entirely. The
 * cached pages are the query cache's offline copies (query-persister.ts) and the model listing.
 */
const LAST_USER_KEY = 'helix.offline.userId';

async function clearCachedPages(userId: number): Promise<void> {
  const db = await openOfflineDb();
  if (!db) return;
  await Promise.all([
    db.snapshots.where('userId').equals(userId).delete(),
    db.listings.where('userId').equals(userId).delete(),
  ]).catch(() => undefined);
}

export function watchUserData(): void {
  // Undefined until the first check, which compares the signed-in user with the device's last one.
  let previous: number | null | undefined;
  const check = () => {
    const current = appStore.get(sessionUserAtom)?.id ?? null;
    if (current === previous) return;
    // Nothing one user was shown stays in memory for the next (their offline copies stay on the
    // device for them, unless they signed out).
    if (previous != null) queryClient.clear();
    if (previous != null && current === null) void clearCachedPages(previous);
    previous = current;
    if (current === null) return;
    let last: string | null = null;
    try {
      last = localStorage.getItem(LAST_USER_KEY);
      localStorage.setItem(LAST_USER_KEY, String(current));
    } catch {
      // No storage: nothing to compare with.
    }
    if (last !== null && last !== String(current)) void clearUserData(Number(last)).catch(() => undefined);
  };
  check();
  appStore.sub(sessionUserAtom, check);
}

/** How many edits the user still has in the outbox (Log Out warns when there are any). */
export async function queuedEditCount(userId: number): Promise<number> {
  try {
    return (await (await openOfflineDb())?.outbox.where('userId').equals(userId).count()) ?? 0;
  } catch {
    return 0;
  }
}
