import { isRetryable as isRetryableFailure } from '@helix/shared/schemas/outbox';
import { OFFLINE_VIEW_MAX_AGE_DAYS, OfflineViewAnswer } from '@helix/shared/schemas/pinned-model';
import { ApiError } from '../api/api-error';
import { tenantApi } from '../api/client';
import { logError } from '../logging/error-logger';
import { readTenant } from '../session/cookies';
import { appStore, sessionUserAtom } from '../session/session.atoms';
import { randomId } from './device-id';
import type { QueuedViewRow } from './offline-db';
import { openOfflineDb } from './open-db';
import { backoffMs } from './outbox-schedule';

/**
 * Views of pinned models made without network (issue 8 §3). Each opening is queued with its own key
 * and the offline copy it was made with (copy id and device id, issued by the server when the model
 * was pinned), and sent when the device is back online (POST /model/offline-view), where it is counted
 * exactly once, only against that copy, at most once per view window, against the same limits as an
 * online view. Like online, a user's openings of one model within the view window count once: a second
 * opening within QUEUE_WINDOW_MS of a queued one is not queued.
 */
const QUEUE_WINDOW_MS = 30 * 60 * 1000;
const MAX_AGE_MS = OFFLINE_VIEW_MAX_AGE_DAYS * 24 * 60 * 60 * 1000;
const LOCK_NAME = 'helix-queued-views';

let syncNow: () => void = () => undefined;
let soon: ReturnType<typeof setTimeout> | undefined;

/** 16 random bytes, base64url: a key the server accepts (OFFLINE_VIEW_KEY_PATTERN). */
export const newViewKey = randomId;

/** The offline copy a view is made with, as the server issued it (pinned-models.ts). */
export interface CopyRef {
  copyId: string;
  deviceId: string;
}

/** Queues one offline view (unless one of the same model is queued within the window). */
export async function queueView(
  userId: number,
  tenant: string,
  modelId: number,
  copy: CopyRef,
  now = Date.now(),
): Promise<boolean> {
  const db = await openOfflineDb();
  if (!db) return false;
  return db.transaction('rw', db.queuedViews, async () => {
    const recent = await db.queuedViews
      .where('userId')
      .equals(userId)
      .filter(
        (row) => row.modelId === modelId && row.tenant === tenant && now - row.viewedAt < QUEUE_WINDOW_MS,
      )
      .count();
    if (recent > 0) return false;
    await db.queuedViews.add({
      key: newViewKey(),
      userId,
      tenant,
      modelId,
      copyId: copy.copyId,
      deviceId: copy.deviceId,
      viewedAt: now,
      attempts: 0,
    });
    return true;
  });
}

/**
 * The outbox's retry rule (failureKind, @helix/shared/schemas/outbox): a network failure, 5xx, 408,
 * 429 and a key still running (IDEMPOTENCY_IN_PROGRESS) are tried again later; any other answer is
 * the server's last word.
 */
export const isRetryable = (error: unknown): boolean =>
  !(error instanceof ApiError) || isRetryableFailure({ status: error.statusCode, code: error.code });

export type Send = (row: QueuedViewRow) => Promise<unknown>;

const post: Send = (row) =>
  tenantApi
    .post<unknown>(
      '/model/offline-view',
      {
        id: row.modelId,
        key: row.key,
        copyId: row.copyId,
        deviceId: row.deviceId,
        viewedAt: new Date(row.viewedAt).toISOString(),
      },
      { toast: false },
    )
    .then((answer) => OfflineViewAnswer.parse(answer));

/**
 * Sends the user's queued views of this tenant, oldest first, and answers how many attempts the
 * first one still failing has made (0: none left failing). A view is deleted once the server has
 * answered it (counted, or refused: over the limit, no longer allowed, too old); a retryable failure
 * stops the round and keeps it (and the rest) for later.
 */
export async function sendQueuedViews(
  userId: number,
  tenant: string,
  send: Send = post,
  now = Date.now(),
): Promise<number> {
  const db = await openOfflineDb();
  if (!db) return 0;
  const rows = (await db.queuedViews.where('userId').equals(userId).toArray())
    .filter((row) => row.tenant === tenant)
    .sort((a, b) => a.viewedAt - b.viewedAt);
  for (const row of rows) {
    if (now - row.viewedAt > MAX_AGE_MS || !row.copyId || !row.deviceId) {
      // The server would refuse it: views are counted for 8 days, and only with a copy it issued.
      await db.queuedViews.delete(row.key);
      continue;
    }
    try {
      await send(row);
    } catch (error) {
      if (isRetryable(error)) {
        const attempts = row.attempts + 1;
        await db.queuedViews.update(row.key, { attempts });
        return attempts;
      }
      logError('An offline view was refused', error, 'warn');
    }
    await db.queuedViews.delete(row.key);
  }
  return 0;
}

/** One tab at a time (Web Locks): another tab already sending makes this call a no-op. */
async function withLock(run: () => Promise<void>): Promise<void> {
  if (!navigator.locks) return run();
  await navigator.locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) => {
    if (lock) await run();
  });
}

/**
 * Sends queued views at start-up, whenever the browser comes back online or a user signs in, and
 * after a retryable failure with the outbox's backoff (outbox-schedule.ts: 1 s doubling to 5 min, with
 * jitter).
 */
export function startQueuedViewSync(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  const sync = () => {
    clearTimeout(timer);
    const user = appStore.get(sessionUserAtom);
    if (!user || running || !navigator.onLine) return;
    running = true;
    void withLock(async () => {
      const attempts = await sendQueuedViews(user.id, readTenant());
      if (attempts > 0) timer = setTimeout(sync, backoffMs(attempts));
    })
      .catch((error: unknown) => logError('Sending offline views failed', error, 'warn'))
      .finally(() => {
        running = false;
      });
  };
  syncNow = sync;
  window.addEventListener('online', sync);
  const unsubscribe = appStore.sub(sessionUserAtom, sync);
  sync();
  return () => {
    clearTimeout(timer);
    window.removeEventListener('online', sync);
    unsubscribe();
  };
}

/**
 * After queueing a view while the browser believes it is online (the server was unreachable): no
 * `online` event will come, so try again after the first backoff step.
 */
export function sendQueuedViewsSoon(): void {
  clearTimeout(soon);
  soon = setTimeout(syncNow, backoffMs(1));
}
