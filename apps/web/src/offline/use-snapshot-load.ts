import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { toastError } from '../ui/notify';
import { offlineCopy, offlineSavedAt } from './query-persister';

export type SnapshotLoad<T> =
  { status: 'loading' } | { status: 'ready'; data: T; savedAt: number | null } | { status: 'failed' };

/** A page's key in the query cache (and of its offline copy). */
export const snapshotLoadKey = (name: string): unknown[] => ['snapshot-load', name];

/**
 * A page's data meant for offline use, as a query (src/api/query-client.ts) persisted in IndexedDB
 * (offline/query-persister.ts): the server's answer, or the saved answer with its time when the server
 * cannot be reached, or a toast with `failMessage`. Loads on mount; `reload` loads again (the outbox
 * calls it when an edit lands).
 */
export function useSnapshotLoad<T>(
  name: string,
  fetcher: (signal?: AbortSignal) => Promise<T>,
  failMessage: string,
  options: { enabled?: boolean } = {},
): { load: SnapshotLoad<T>; reload(): void } {
  const queryClient = useQueryClient();
  const result = useQuery<T, Error, T, unknown[]>({
    queryKey: snapshotLoadKey(name),
    queryFn: ({ signal }) => fetcher(signal),
    enabled: options.enabled ?? true,
    ...offlineCopy,
  });
  const savedAt = offlineSavedAt(result);
  const failed = result.isError && savedAt === null;

  useEffect(() => {
    if (failed) toastError(failMessage);
  }, [failed, result.errorUpdatedAt, failMessage]);

  const reload = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: snapshotLoadKey(name) }),
    [queryClient, name],
  );

  const load: SnapshotLoad<T> = failed
    ? { status: 'failed' }
    : result.data !== undefined
      ? { status: 'ready', data: result.data, savedAt }
      : { status: 'loading' };
  return { load, reload };
}
