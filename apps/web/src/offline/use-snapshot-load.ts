import { useCallback, useEffect, useState } from 'react';
import { toastError } from '../ui/notify';
import { loadWithSnapshot } from './snapshot';

export type SnapshotLoad<T> =
  { status: 'loading' } | { status: 'ready'; data: T; savedAt: number | null } | { status: 'failed' };

/**
 * A listing page's data: the server's answer (kept as the offline snapshot), or the snapshot when the
 * server cannot be reached, or a toast with `failMessage`. Loads on mount; `reload` loads again (the
 * outbox calls it when an edit lands). `fetcher` must keep its identity (a module-level function).
 */
export function useSnapshotLoad<T>(
  name: string,
  fetcher: (signal?: AbortSignal) => Promise<T>,
  failMessage: string,
): { load: SnapshotLoad<T>; reload(signal?: AbortSignal): void } {
  const [load, setLoad] = useState<SnapshotLoad<T>>({ status: 'loading' });

  const reload = useCallback(
    (signal?: AbortSignal) => {
      loadWithSnapshot(name, () => fetcher(signal))
        .then(({ data, savedAt }) => setLoad({ status: 'ready', data, savedAt }))
        .catch(() => {
          if (signal?.aborted) return;
          toastError(failMessage);
          setLoad({ status: 'failed' });
        });
    },
    [name, fetcher, failMessage],
  );

  useEffect(() => {
    const controller = new AbortController();
    reload(controller.signal);
    return () => controller.abort();
  }, [reload]);

  return { load, reload };
}
