import { liveQuery, type Subscription } from 'dexie';
import { atom, useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { appStore, sessionUserAtom } from '../session/session.atoms';
import type { OutboxRow } from './offline-db';
import { outboxEntries } from './outbox';

/** The signed-in user's outbox, kept live by one subscription (Dexie's liveQuery sees other tabs too). */
const outboxRowsAtom = atom<OutboxRow[]>([]);

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

/** An empty outbox read again (the usual start-up answer) keeps the atom's value: nothing renders again. */
function setRows(rows: OutboxRow[]): void {
  if (rows.length === 0 && appStore.get(outboxRowsAtom).length === 0) return;
  appStore.set(outboxRowsAtom, rows);
}

export function watchOutbox(): void {
  follow();
  appStore.sub(sessionUserAtom, follow);
}

export const useOutbox = (): OutboxRow[] => useAtomValue(outboxRowsAtom);

/** Targets ('role:12') with an edit not yet accepted by the server: the screens mark them pending. */
export function usePendingTargets(): Set<string> {
  const rows = useOutbox();
  return useMemo(() => new Set(rows.map((r) => r.target)), [rows]);
}
