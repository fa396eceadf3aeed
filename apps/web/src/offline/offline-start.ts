import { startOutbox } from './outbox';
import { freePinsOnSignOut } from './pinned-models';
import { startQueuedViewSync } from './queued-views';
import { watchOutbox } from './outbox-watch';
import { watchUserData } from './user-data';

/** Offline services that run whatever page is open (called once from main.tsx, after the session is read). */
export function startOfflineServices(): void {
  watchUserData();
  watchOutbox();
  startOutbox();
  freePinsOnSignOut();
  startQueuedViewSync();
}
