import { liveQuery, type Subscription } from 'dexie';
import { appStore, sessionUserAtom } from '../session/session.atoms';
import { outboxEntries } from './outbox';
import { setOutboxRows as setRows } from './use-outbox';

/*
 * Keeps ./use-outbox.ts's rows live for the signed-in user (Dexie's liveQuery sees other tabs too).
 * Started by the offline services (./offline-start.ts), after the first render.
 */

let subscription: Subscription | null = null;
let watchedUser: number | null = null;

function follow(): void {
  const userId = appStore.get(sessionUserAtom)?.id ?? null;
  if (userId === watchedUser) return;
  watchedUser = userId;
  subscription?.unsubscribe();
  subscription = null;
  setRows([]);
  if (userId === null) return;
  subscription = liveQuery(() => outboxEntries(userId)).subscribe({
    next: setRows,
    error: () => setRows([]),
  });
}

export function watchOutbox(): void {
  follow();
  appStore.sub(sessionUserAtom, follow);
}
