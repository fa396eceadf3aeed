import Dexie, { type EntityTable } from 'dexie';

/**
 * The app's one IndexedDB database (ARCHITECTURE.md §10). Everything here is per user: rows carry the
 * `userId` they belong to, and signing out or another user signing in clears the previous user's rows
 * (see `clearUserData`). Cached rows are a cache: a server answer always replaces them.
 *
 * Stores (bump the version and add a new `stores()` call to change them; never edit an old one):
 * - `listings`: the last model listing a user saw (the grid), key `${tenant}:${userId}`.
 * - `snapshots`: the last server answer of a listing page (roles, permissions, users, branding,
 *   newsletter, session user...), key `${userId}:${name}`.
 * - `outbox`: edits made while the server could not be reached, replayed in `seq` order.
 * - `pinnedModels`: models a user keeps on the device for offline use (files live in Cache Storage).
 * - `queuedViews`: views made offline, each with its own idempotency key, sent when back online.
 */
export interface CachedListingRow {
  key: string;
  userId: number;
  models: unknown[];
  views: unknown;
  savedAt: number;
}

export interface SnapshotRow {
  /** `${userId}:${name}` */
  key: string;
  userId: number;
  name: string;
  data: unknown;
  savedAt: number;
}

export type OutboxState = 'pending' | 'syncing' | 'refused' | 'conflict';

export interface OutboxRow {
  /** Replay order. */
  seq?: number;
  /** The client-made idempotency key, sent as the Idempotency-Key header. */
  key: string;
  userId: number;
  tenant: string;
  /** What the edit is, for the Outbox panel and the screens' pending marks (e.g. 'role.update'). */
  kind: string;
  /** The record it changes (e.g. 'role:12'), so a screen can show it as pending. */
  target: string;
  /** A sentence for the panel ("Rename role Teachers"). */
  label: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body: unknown;
  /** The version of the record the edit was based on (sent as If-Match), when it has one. */
  baseVersion: number | null;
  /** Which field of a conflict's `current` holds the version to retry on (default 'version'). */
  versionField?: 'version' | 'rolesVersion';
  state: OutboxState;
  attempts: number;
  /** Earliest time of the next attempt (backoff), ms since epoch. */
  nextAttemptAt: number;
  createdAt: number;
  /** The server's code and message for a refused or conflicting edit. */
  errorCode?: string;
  errorMessage?: string;
  /** The server's current record for a conflict. */
  current?: unknown;
}

export interface PinnedModelRow {
  userId: number;
  modelId: number;
  tenant: string;
  /** The model as the listing showed it (name, thumbnail...), to show and open it offline. */
  model: unknown;
  /** Cache Storage URLs kept for this model (files, thumbnail), freed on unpin. */
  urls: string[];
  bytes: number;
  pinnedAt: number;
}

export interface QueuedViewRow {
  /** The view's own idempotency key: it is counted once however often it is sent. */
  key: string;
  userId: number;
  tenant: string;
  modelId: number;
  /**
   * The offline copy the view was made with and the device it was issued to: the server counts a view
   * only against a copy it issued (rows queued before copies had ids lack them and are dropped).
   */
  copyId?: string;
  deviceId?: string;
  viewedAt: number;
  attempts: number;
}

export class OfflineDb extends Dexie {
  listings!: EntityTable<CachedListingRow, 'key'>;
  snapshots!: EntityTable<SnapshotRow, 'key'>;
  outbox!: EntityTable<OutboxRow, 'seq'>;
  pinnedModels!: Dexie.Table<PinnedModelRow, [number, number]>;
  queuedViews!: EntityTable<QueuedViewRow, 'key'>;

  constructor(name = 'helix') {
    super(name);
    this.version(1).stores({
      listings: 'key, userId, savedAt',
      snapshots: 'key, userId',
      outbox: '++seq, &key, userId, state',
      pinnedModels: '[userId+modelId], userId',
      queuedViews: 'key, userId',
    });
  }
}

let db: OfflineDb | null | undefined;

/** IndexedDB may be missing or refused (some private windows): the offline features are then absent. */
export function offlineDb(): OfflineDb | null {
  if (db !== undefined) return db;
  try {
    db = typeof indexedDB === 'undefined' ? null : new OfflineDb();
  } catch {
    db = null;
  }
  // The model cache used to open its own database; it is folded in here.
  if (db) void Dexie.delete('helix-models').catch(() => undefined);
  return db;
}

/** Forgets one user's cached data (listings, snapshots, outbox, pins, queued views). */
export async function clearUserData(userId: number): Promise<void> {
  const d = offlineDb();
  if (!d) return;
  await d.transaction('rw', [d.listings, d.snapshots, d.outbox, d.pinnedModels, d.queuedViews], async () => {
    await Promise.all([
      d.listings.where('userId').equals(userId).delete(),
      d.snapshots.where('userId').equals(userId).delete(),
      d.outbox.where('userId').equals(userId).delete(),
      d.pinnedModels.where('userId').equals(userId).delete(),
      d.queuedViews.where('userId').equals(userId).delete(),
    ]);
  });
}
