import type { OutboxRow } from './offline-db';

/**
 * When the outbox sends what (the pure part of replay, see outbox.ts). A queued edit has no expiry on
 * the device: whatever its age it waits only for its backoff, which is capped at a few minutes, so an
 * edit made seven days offline is sent as soon as the network is back. The server keeps its
 * Idempotency-Key answers for 30 days (packages/server/src/idempotency).
 */
const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 5 * 60_000;

/** 1 s, 2 s, 4 s ... up to 5 minutes, with a little jitter so tabs and devices do not beat in step. */
export const backoffMs = (attempts: number, random: () => number = Math.random): number =>
  Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1)) * (1 + random() * 0.2);

export type ReplayStep = { send: OutboxRow } | { waitMs: number } | null;

/**
 * The next step of a replay pass over a user's entries in `seq` order: send the first waiting entry,
 * or wait for its backoff (a later edit never overtakes an earlier one), or nothing (all sent, or only
 * refused and conflicting entries left for the user to decide).
 */
export function nextReplayStep(rows: OutboxRow[], now: number): ReplayStep {
  const next = rows.find((r) => r.state === 'pending' || r.state === 'syncing');
  if (!next) return null;
  const wait = next.nextAttemptAt - now;
  return wait > 0 ? { waitMs: wait } : { send: next };
}
