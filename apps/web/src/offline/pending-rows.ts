import { useEffect, useRef } from 'react';
import type { OutboxRow } from './offline-db';
import { useOutbox } from './use-outbox';

/**
 * Calls `reload` a moment after the outbox changed (an edit was accepted, refused or queued), so a
 * listing shows the server's state once its pending edits went through.
 */
export function useReloadOnOutboxChange(reload: () => void, delayMs = 400): OutboxRow[] {
  const rows = useOutbox();
  const signature = rows.map((r) => `${r.seq}:${r.state}`).join(',');
  const first = useRef(true);
  const latest = useRef(reload);
  latest.current = reload;
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => latest.current(), delayMs);
    return () => clearTimeout(timer);
  }, [signature, delayMs]);
  return rows;
}
