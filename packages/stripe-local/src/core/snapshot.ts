import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Store, Table } from './store.ts';

const TABLES = [
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
] as const;

/** Events kept in a snapshot (the newest): enough for /v1/events, bounded in size. */
const MAX_EVENTS = 2000;
const VERSION = 1;

/**
 * The state as JSON, so `npm start` keeps the customers and subscriptions the portal's database points
 * at across restarts. Webhook endpoints are not kept: each start registers its own.
 */
export function saveSnapshot(store: Store, file: string): void {
  const data: Record<string, unknown> = { version: VERSION, invoiceSequence: store.invoiceSequence };
  for (const name of TABLES) {
    const table = store[name] as Table<{ id: string; created: number }>;
    const rows = [...table.values()];
    data[name] = name === 'events' ? rows.slice(-MAX_EVENTS) : rows;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.tmp`;
  writeFileSync(temp, JSON.stringify(data));
  renameSync(temp, file);
}

export function loadSnapshot(store: Store, file: string): boolean {
  if (!existsSync(file)) return false;
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (data.version !== VERSION) return false;
  store.invoiceSequence = Number(data.invoiceSequence) || 0;
  for (const name of TABLES) {
    const table = store[name] as Table<{ id: string; created: number }>;
    for (const row of (data[name] as { id: string; created: number }[] | undefined) ?? []) table.add(row);
  }
  // A clock that was advancing when the server stopped is ready now (its work ran synchronously).
  for (const clock of store.testClocks.values()) if (clock.status === 'advancing') clock.status = 'ready';
  return true;
}
