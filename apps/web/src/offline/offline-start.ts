import { freePinsOnSignOut } from './pinned-models';
import { startQueuedViewSync } from './queued-views';

/** Offline services that run whatever page is open (called once from main.tsx). */
export function startOfflineServices(): void {
  freePinsOnSignOut();
  startQueuedViewSync();
}
