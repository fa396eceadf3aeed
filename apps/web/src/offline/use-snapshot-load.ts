import { useCallback, useEffect, useRef, useState } from 'react';
import { peekFirstAnswer, takeFirstAnswer, type FirstAnswerName } from '../prerender/first-answers';
import { toastError } from '../ui/notify';
import { loadWithSnapshot } from './snapshot';

export type SnapshotLoad<T> =
  { status: 'loading' } | { status: 'ready'; data: T; savedAt: number | null } | { status: 'failed' };

/**
 * A listing page's data: the server's answer (kept as the offline snapshot), or the snapshot when the
 * server cannot be reached, or a toast with `failMessage`. Loads on mount; `reload` loads again (the
 * outbox calls it when an edit lands). `fetcher` must keep its identity (a module-level function).
 * `first`: the answer a drawn page came with (src/prerender/first-answers.ts), parsed as the fetcher
 * parses it: the page starts with it and does not ask again on mount.
 */
export function useSnapshotLoad<T>(
  name: string,
  fetcher: (signal?: AbortSignal) => Promise<T>,
  failMessage: string,
  first?: { answer: FirstAnswerName; parse: (answer: unknown) => T },
): { load: SnapshotLoad<T>; reload(signal?: AbortSignal): void } {
  const [load, setLoad] = useState<SnapshotLoad<T>>(() => seeded(first));
  const skipFirstLoad = useRef(load.status === 'ready');

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
    if (skipFirstLoad.current && first) {
      skipFirstLoad.current = false;
      takeFirstAnswer(first.answer);
      return;
    }
    const controller = new AbortController();
    reload(controller.signal);
    return () => controller.abort();
    // `first` only matters on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reload]);

  return { load, reload };
}

function seeded<T>(first?: { answer: FirstAnswerName; parse: (answer: unknown) => T }): SnapshotLoad<T> {
  const answer = first ? peekFirstAnswer(first.answer) : undefined;
  if (!first || answer === undefined) return { status: 'loading' };
  try {
    return { status: 'ready', data: first.parse(answer), savedAt: null };
  } catch {
    return { status: 'loading' };
  }
}
