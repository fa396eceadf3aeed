import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Store, Table } from './store.ts';

/** The tables kept on disk (snapshot and journal). */
export const PERSISTED_TABLES = [
  'customers',
  'products',
  'prices',
  'coupons',
  'paymentMethods',
  'setupIntents',
  'paymentIntents',
  'charges',
  'subscriptions',
  'invoices',
  'invoicePayments',
  'checkoutSessions',
  'portalSessions',
  'testClocks',
  'events',
  'webhookEndpoints',
  'idempotencyKeys',
] as const;
export type PersistedTable = (typeof PERSISTED_TABLES)[number];

/** Events kept in a snapshot (the newest): enough for /v1/events, bounded in size. */
const MAX_EVENTS = 10_000;
/** Stripe keeps an idempotency key's answer for 24 hours. */
const IDEMPOTENCY_SECONDS = 86_400;
const VERSION = 1;

type Row = { id: string; created: number; fromStart?: boolean };

/**
 * The whole state as one JSON file, written to a temporary file, fsynced and renamed (then the directory
 * fsynced), so a crash leaves the old snapshot or the new one. `generation` ties it to its journal
 * (core/journal.ts). Webhook endpoints registered from the start options are not kept: each start
 * registers its own.
 */
export function writeSnapshot(store: Store, file: string, generation: number): void {
  const data: Record<string, unknown> = {
    version: VERSION,
    generation,
    invoiceSequence: store.invoiceSequence,
  };
  const now = Math.floor(Date.now() / 1000);
  for (const name of PERSISTED_TABLES) {
    const table = store[name] as unknown as Table<Row>;
    let rows = [...table.rawValues()].filter((r) => !r.fromStart);
    if (name === 'events') rows = rows.slice(-MAX_EVENTS);
    if (name === 'idempotencyKeys') rows = rows.filter((r) => now - r.created < IDEMPOTENCY_SECONDS);
    data[name] = rows;
  }
  const temp = `${file}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, JSON.stringify(data));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
  syncDirectory(file);
}

/** Loads a snapshot into an empty store; undefined when there is none (or of another version). */
export function readSnapshot(store: Store, file: string): { generation: number } | undefined {
  if (!existsSync(file)) return undefined;
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (data.version !== VERSION) return undefined;
  store.invoiceSequence = Number(data.invoiceSequence) || 0;
  for (const name of PERSISTED_TABLES) {
    const table = store[name] as unknown as Table<Row>;
    for (const row of (data[name] as Row[] | undefined) ?? []) table.add(row);
  }
  return { generation: Number(data.generation) || 0 };
}

/** A rename is durable only once its directory is synced. */
export function syncDirectory(file: string): void {
  try {
    const fd = openSync(path.dirname(file), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse to fsync a directory; the rename is then as durable as they make it.
  }
}
