import { atom, useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { appStore } from '../session/session.atoms';
import type { OutboxRow } from './offline-db';

/**
 * The signed-in user's outbox, kept live by one subscription (./outbox-watch.ts, started with the
 * offline services after the first render: Dexie is not part of a page's first load).
 */
const outboxRowsAtom = atom<OutboxRow[]>([]);

/** An empty outbox read again (the usual start-up answer) keeps the atom's value: nothing renders again. */
export function setOutboxRows(rows: OutboxRow[]): void {
  if (rows.length === 0 && appStore.get(outboxRowsAtom).length === 0) return;
  appStore.set(outboxRowsAtom, rows);
}

export const useOutbox = (): OutboxRow[] => useAtomValue(outboxRowsAtom);

/** Targets ('role:12') with an edit not yet accepted by the server: the screens mark them pending. */
export function usePendingTargets(): Set<string> {
  const rows = useOutbox();
  return useMemo(() => new Set(rows.map((r) => r.target)), [rows]);
}
