import { QUEUED_AT_HEADER } from '@helix/shared/schemas/audit';
import { failureKind, IDEMPOTENCY_HEADER, type OutboxKind } from '@helix/shared/schemas/outbox';
import { ApiError } from '../api/api-error';
import { tenantApiOf } from '../api/client';
import { clientEffects } from '../api/client-effects';
import { readTenant } from '../session/cookies';
import { appStore, sessionUserAtom } from '../session/session.atoms';
import { refreshSessionUser } from '../session/session';
import type { OutboxRow } from './offline-db';
import { openOfflineDb } from './open-db';
import { backoffMs, nextReplayStep } from './outbox-schedule';

/**
 * The offline outbox (ARCHITECTURE.md §10, issue 8 §2). An edit is sent at once when it can be; when
 * the network fails (or the server says "retry later": 5xx, 429, a key still running) it is queued in
 * IndexedDB with a client-made Idempotency-Key and the version it was based on (If-Match). Replay is
 * in `seq` order, by one tab at a time (Web Locks), on `online`, at start-up and by the panel's button.
 * The server decides: a success removes the entry, a refusal or a version conflict stays in the
 * Outbox panel with the server's code, message and current record until retried or discarded.
 */

export interface EditSpec {
  kind: OutboxKind;
  /** The record it changes ('role:12'): the screens mark it as pending. */
  target: string;
  label: string;
  /** The tenant call's path ('/role/create'). */
  path: string;
  body: unknown;
  baseVersion: number | null;
  /** Which field of a conflict's `current` holds the version ('rolesVersion' for assignments). */
  versionField?: 'version' | 'rolesVersion';
  /** false: a refusal of a direct send is not toasted (the form shows its own message). */
  toastRefusal?: boolean;
}

export type EditResult<T> = { status: 'sent'; data: T } | { status: 'queued' };

const LOCK_NAME = 'helix-outbox';

const newKey = (): string => crypto.randomUUID();

const currentUserId = (): number | null => appStore.get(sessionUserAtom)?.id ?? null;

const isOffline = (): boolean => typeof navigator !== 'undefined' && navigator.onLine === false;

/**
 * An outbox call's headers. A replayed edit also says when it was queued (X-Queued-At), so the
 * server's audit log shows it as made offline, with its queued and applied times.
 */
function headersOf(key: string, baseVersion: number | null, queuedAt?: number): Record<string, string> {
  return {
    [IDEMPOTENCY_HEADER]: key,
    ...(baseVersion !== null ? { 'If-Match': String(baseVersion) } : {}),
    ...(queuedAt !== undefined ? { [QUEUED_AT_HEADER]: new Date(queuedAt).toISOString() } : {}),
  };
}

const kindOf = (error: unknown) =>
  error instanceof ApiError ? failureKind({ status: error.statusCode, code: error.code }) : 'retry';

/** The user's entries in replay order. */
export async function outboxEntries(userId: number): Promise<OutboxRow[]> {
  const db = await openOfflineDb();
  if (!db) return [];
  return db.outbox.where('userId').equals(userId).sortBy('seq');
}

async function enqueue(
  spec: EditSpec,
  key: string,
  userId: number,
  tenant: string,
  attempts = 0,
): Promise<void> {
  const db = await openOfflineDb();
  if (!db) throw ApiError.network(false);
  const now = Date.now();
  await db.outbox.add({
    key,
    userId,
    tenant,
    kind: spec.kind,
    target: spec.target,
    label: spec.label,
    method: 'POST',
    path: spec.path,
    body: spec.body,
    baseVersion: spec.baseVersion,
    ...(spec.versionField ? { versionField: spec.versionField } : {}),
    state: 'pending',
    attempts,
    nextAttemptAt: now,
    createdAt: now,
  } as OutboxRow);
}

/**
 * Sends an edit, or queues it when the server cannot be reached. A refusal or conflict of a direct
 * send rejects as usual (the form shows it). Behind queued edits a new one queues too, so order holds.
 */
export async function sendOrQueue<T>(spec: EditSpec): Promise<EditResult<T>> {
  const userId = currentUserId();
  const tenant = readTenant();
  const key = newKey();
  const db = await openOfflineDb();
  const waiting =
    db && userId !== null
      ? await db.outbox
          .where('userId')
          .equals(userId)
          .filter((row) => row.state === 'pending' || row.state === 'syncing')
          .count()
      : 0;
  if (userId !== null && db && (isOffline() || waiting > 0)) {
    await enqueue(spec, key, userId, tenant);
    void replayOutbox();
    return { status: 'queued' };
  }
  try {
    const data = await tenantApiOf(tenant).post<T>(spec.path, spec.body, {
      headers: headersOf(key, spec.baseVersion),
      toast: false,
    });
    return { status: 'sent', data };
  } catch (error) {
    if (userId === null || !db || kindOf(error) !== 'retry') {
      // Refused now, online: the form shows it as any failed save (a 401 has its own effects).
      if (error instanceof ApiError && error.statusCode !== 401 && spec.toastRefusal !== false) {
        clientEffects().toastError(error.message);
      }
      throw error;
    }
    // The same key: if the server did act before the connection dropped, the replay reads its answer.
    await enqueue(spec, key, userId, tenant, 1);
    scheduleReplay(backoffMs(1));
    return { status: 'queued' };
  }
}

let timer: ReturnType<typeof setTimeout> | undefined;

function scheduleReplay(delayMs: number): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => void replayOutbox(), Math.max(0, delayMs));
}

type Outcome = 'done' | 'stop';

/**
 * What follows an accepted replay of a kind, beyond the screens' reload on an outbox change: a
 * profile name lives in the session user (the header), so it is read again from the server.
 */
const AFTER_REPLAY: Partial<Record<string, () => Promise<unknown>>> = {
  'profile.update': () => refreshSessionUser(),
};

/** The record's new version in an answer (model, role save, branding, profile, role assignment). */
function versionIn(data: unknown, field: 'version' | 'rolesVersion'): number | null {
  const d = data as Record<string, unknown> | null | undefined;
  const candidates = [
    d?.[field],
    (d?.role as Record<string, unknown>)?.[field],
    (d?.user as Record<string, unknown>)?.[field],
  ];
  const found = candidates.find((v) => typeof v === 'number');
  return typeof found === 'number' ? found : null;
}

/**
 * Several queued edits of one record were all based on the version the screen showed. Once the first
 * is accepted, the later ones (not yet sent) are based on the version it produced, so the user's own
 * edits never conflict with each other. Edits already attempted keep theirs (their key is bound to it).
 */
async function rebase(sent: OutboxRow, data: unknown): Promise<void> {
  if (sent.baseVersion === null) return;
  const version = versionIn(data, sent.versionField ?? 'version');
  if (version === null) return;
  await (await openOfflineDb())!.outbox
    .where('userId')
    .equals(sent.userId)
    .filter(
      (row) =>
        row.target === sent.target &&
        row.attempts === 0 &&
        row.baseVersion === sent.baseVersion &&
        row.seq! > sent.seq!,
    )
    .modify({ baseVersion: version });
}

async function replayOne(row: OutboxRow): Promise<Outcome> {
  const db = (await openOfflineDb())!;
  await db.outbox.update(row.seq!, { state: 'syncing' });
  try {
    const data = await tenantApiOf(row.tenant).post<unknown>(row.path, row.body, {
      headers: headersOf(row.key, row.baseVersion, row.createdAt),
      toast: false,
    });
    await rebase(row, data);
    await db.outbox.delete(row.seq!);
    void AFTER_REPLAY[row.kind]?.().catch(() => undefined);
    return 'done';
  } catch (error) {
    const failure = error instanceof ApiError ? error : ApiError.network(false);
    const kind = kindOf(failure);
    // A 401 signs the user out (the client's session effects); the edit waits for their return.
    if (kind === 'retry' || failure.statusCode === 401) {
      const attempts = row.attempts + 1;
      await db.outbox.update(row.seq!, {
        state: 'pending',
        attempts,
        nextAttemptAt: Date.now() + backoffMs(attempts),
      });
      return 'stop';
    }
    await db.outbox.update(row.seq!, {
      state: kind === 'conflict' ? 'conflict' : 'refused',
      attempts: row.attempts + 1,
      errorCode: failure.code || String(failure.statusCode),
      errorMessage: failure.message,
      current: failure.current,
    });
    return 'done';
  }
}

async function drain(userId: number): Promise<void> {
  for (;;) {
    const step = nextReplayStep(await outboxEntries(userId), Date.now());
    if (!step) return;
    // Replay waits for the first entry's backoff: a later edit never overtakes an earlier one.
    if ('waitMs' in step) {
      scheduleReplay(step.waitMs);
      return;
    }
    const next = step.send;
    if ((await replayOne(next)) === 'stop') {
      const row = await (await openOfflineDb())!.outbox.get(next.seq!);
      if (row) scheduleReplay(row.nextAttemptAt - Date.now());
      return;
    }
  }
}

let replaying: Promise<void> | null = null;

/**
 * Sends the signed-in user's queued edits, in order. One tab at a time: the Web Lock is held for the
 * whole pass, and a tab that finds it taken leaves the work to the holder (its `online` event or timer
 * will look again). `syncing` rows met here belong to a tab that died mid-send: they are resent with
 * their key, which the server answers from its store if it had acted.
 */
function replayOutbox(): Promise<void> {
  const userId = currentUserId();
  if (userId === null) return Promise.resolve();
  if (replaying) return replaying;
  const run = async () => {
    if (!(await openOfflineDb())) return;
    if (typeof navigator !== 'undefined' && navigator.locks) {
      await navigator.locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) => {
        if (lock) await drain(userId);
        // Another tab is replaying: look again later in case it finished before our edit was queued.
        else scheduleReplay(2000);
      });
    } else {
      await drain(userId);
    }
  };
  replaying = run()
    .catch((error: unknown) => console.warn('Outbox replay failed', error))
    .finally(() => {
      replaying = null;
    });
  return replaying;
}

/** Sends a refused edit again as it is (a new key: the refusal is stored under the old one). */
export async function retryEntry(seq: number): Promise<void> {
  await (
    await openOfflineDb()
  )?.outbox.update(seq, {
    key: newKey(),
    state: 'pending',
    nextAttemptAt: Date.now(),
    errorCode: undefined,
    errorMessage: undefined,
    current: undefined,
  });
  await replayOutbox();
}

/** A conflict retried on the current version: the server's `current` version becomes If-Match. */
export async function retryOnCurrentVersion(seq: number): Promise<void> {
  const db = await openOfflineDb();
  const row = await db?.outbox.get(seq);
  if (!db || !row) return;
  const current = row.current as Record<string, unknown> | undefined;
  const version = current?.[row.versionField ?? 'version'];
  await db.outbox.update(seq, {
    key: newKey(),
    baseVersion: typeof version === 'number' ? version : row.baseVersion,
    state: 'pending',
    nextAttemptAt: Date.now(),
    errorCode: undefined,
    errorMessage: undefined,
    current: undefined,
  });
  await replayOutbox();
}

export async function discardEntry(seq: number): Promise<void> {
  await (await openOfflineDb())?.outbox.delete(seq);
}

let started = false;

/** Now: waiting entries skip the rest of their backoff (back online, or the panel's Sync now). */
export async function syncNow(): Promise<void> {
  const userId = currentUserId();
  const db = await openOfflineDb();
  if (userId === null || !db) return;
  await db.outbox
    .where('userId')
    .equals(userId)
    .filter((row) => row.state === 'pending')
    .modify({ nextAttemptAt: Date.now() });
  await replayOutbox();
}

/** Replays at start-up and whenever the browser comes back online. */
export function startOutbox(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  window.addEventListener('online', () => void syncNow());
  appStore.sub(sessionUserAtom, () => void replayOutbox());
  void replayOutbox();
}
