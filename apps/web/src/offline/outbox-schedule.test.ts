import { describe, expect, it } from 'vitest';
import type { OutboxRow } from './offline-db';
import { BACKOFF_MAX_MS, backoffMs, nextReplayStep } from './outbox-schedule';

const DAY = 24 * 60 * 60_000;
const NOW = Date.UTC(2026, 10, 23, 12);

const row = (seq: number, over: Partial<OutboxRow> = {}): OutboxRow => ({
  seq,
  key: `key-${seq}`,
  userId: 1,
  tenant: 'acme',
  kind: 'role.update',
  target: `role:${seq}`,
  label: `Rename role ${seq}`,
  method: 'POST',
  path: '/role/create',
  body: { id: seq, name: `Role ${seq}` },
  baseVersion: 3,
  state: 'pending',
  attempts: 0,
  nextAttemptAt: NOW,
  createdAt: NOW,
  ...over,
});

describe('outbox replay schedule', () => {
  it('sends an edit queued seven days ago as soon as the network is back (no expiry on the device)', () => {
    const weekOld = row(1, { createdAt: NOW - 7 * DAY, nextAttemptAt: NOW - 7 * DAY });
    expect(nextReplayStep([weekOld], NOW)).toEqual({ send: weekOld });
  });

  it('sends a week-old edit that failed many times within one capped backoff of its last try', () => {
    // Tried all week long while the network was patchy: the backoff stops growing at five minutes.
    const attempts = 200;
    const lastTry = NOW - 60_000;
    const tried = row(1, {
      createdAt: NOW - 7 * DAY,
      attempts,
      nextAttemptAt: lastTry + backoffMs(attempts, () => 1),
    });
    const step = nextReplayStep([tried], NOW);
    expect(step).toEqual({ waitMs: BACKOFF_MAX_MS * 1.2 - 60_000 });
    expect(nextReplayStep([tried], tried.nextAttemptAt)).toEqual({ send: tried });
  });

  it('keeps the order: the first waiting entry goes first, refused and conflicting ones are left to the user', () => {
    const refused = row(1, { state: 'refused', createdAt: NOW - 8 * DAY });
    const conflict = row(2, { state: 'conflict' });
    const first = row(3, { createdAt: NOW - 7 * DAY, nextAttemptAt: NOW + 5000, attempts: 3 });
    const second = row(4);
    expect(nextReplayStep([refused, conflict, first, second], NOW)).toEqual({ waitMs: 5000 });
    expect(nextReplayStep([refused, conflict, first, second], NOW + 5000)).toEqual({ send: first });
    expect(nextReplayStep([refused, conflict], NOW)).toBeNull();
    expect(nextReplayStep([], NOW)).toBeNull();
  });

  it('resends an entry left syncing by a tab that died mid-send', () => {
    const orphan = row(1, { state: 'syncing', createdAt: NOW - 7 * DAY, nextAttemptAt: NOW - 7 * DAY });
    expect(nextReplayStep([orphan], NOW)).toEqual({ send: orphan });
  });

  it('grows the backoff from one second and caps it at five minutes (plus up to 20% jitter)', () => {
    expect(backoffMs(1, () => 0)).toBe(1000);
    expect(backoffMs(2, () => 0)).toBe(2000);
    expect(backoffMs(4, () => 0)).toBe(8000);
    expect(backoffMs(50, () => 0)).toBe(BACKOFF_MAX_MS);
    expect(backoffMs(10_000, () => 1)).toBe(BACKOFF_MAX_MS * 1.2);
    expect(backoffMs(0, () => 0)).toBe(1000);
  });
});
