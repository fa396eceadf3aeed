import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { toastError } from '../ui/notify';
import { loadWithSnapshot, type Loaded } from './snapshot';

export type { Loaded };

export type SnapshotLoad<T> =
  { status: 'loading' } | { status: 'ready'; data: T; savedAt: number | null } | { status: 'failed' };

/** A listing page's key in the query cache (the snapshot's name). */
export const snapshotLoadKey = (name: string): unknown[] => ['snapshot-load', name];

/**
 * A listing page's data, as a query (src/api/query-client.ts): the server's answer (kept as the
 * offline snapshot), or the snapshot when the server cannot be reached, or a toast with `failMessage`.
 * Loads on mount; `reload` loads again (the outbox calls it when an edit lands).
 */
export function useSnapshotLoad<T>(
  name: string,
  fetcher: (signal?: AbortSignal) => Promise<T>,
  failMessage: string,
  options: { enabled?: boolean } = {},
): { load: SnapshotLoad<T>; reload(): void } {
  const queryClient = useQueryClient();
  const result = useQuery({
    queryKey: snapshotLoadKey(name),
    queryFn: ({ signal }) => loadWithSnapshot(name, () => fetcher(signal)),
    enabled: options.enabled ?? true,
  });

  useEffect(() => {
    if (result.errorUpdatedAt > 0) toastError(failMessage);
  }, [result.errorUpdatedAt, failMessage]);

  const reload = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: snapshotLoadKey(name) }),
    [queryClient, name],
  );

  const load: SnapshotLoad<T> = result.isSuccess
    ? { status: 'ready', data: result.data.data, savedAt: result.data.savedAt }
    : result.isError
      ? { status: 'failed' }
      : { status: 'loading' };
  return { load, reload };
}
