import { useEffect, useState } from 'react';
import { loadLiveQuery, openOfflineDb } from './open-db';
import type { PinnedModel } from './pinned-models';

/**
 * The user's pinned models by model id, kept live (a pin or unpin in this tab or another one shows at
 * once). Empty while loading (the database's code is loaded then, after the grid's first render) and
 * where IndexedDB is unavailable.
 */
export function usePinnedModels(userId: number | null): Map<number, PinnedModel> {
  const [pins, setPins] = useState<Map<number, PinnedModel>>(() => new Map());
  useEffect(() => {
    // No pins read again (the usual answer) keeps the same map: the model cards do not render again.
    const show = (rows: PinnedModel[]) =>
      setPins((shown) =>
        rows.length === 0 && shown.size === 0 ? shown : new Map(rows.map((row) => [row.modelId, row])),
      );
    if (userId === null) {
      show([]);
      return;
    }
    let live = true;
    let stop = () => {};
    void Promise.all([openOfflineDb(), loadLiveQuery()])
      .then(([db, liveQuery]) => {
        if (!live) return;
        if (!db) return show([]);
        const subscription = liveQuery(
          () => db.pinnedModels.where('userId').equals(userId).toArray() as Promise<PinnedModel[]>,
        ).subscribe({
          next: show,
          error: () => show([]),
        });
        stop = () => subscription.unsubscribe();
      })
      .catch(() => show([]));
    return () => {
      live = false;
      stop();
    };
  }, [userId]);
  return pins;
}

export interface StorageFigures {
  used: number;
  free: number;
  persistent: boolean;
}

/** Space used and left for this site (navigator.storage.estimate), refreshed when `version` changes. */
export function useStorageEstimate(version: unknown): StorageFigures | null {
  const [figures, setFigures] = useState<StorageFigures | null>(null);
  useEffect(() => {
    let live = true;
    const storage = typeof navigator !== 'undefined' ? navigator.storage : undefined;
    if (!storage?.estimate) return;
    void Promise.all([storage.estimate(), storage.persisted?.() ?? Promise.resolve(false)])
      .then(([estimate, persistent]) => {
        const used = estimate.usage ?? 0;
        if (live) setFigures({ used, free: Math.max(0, (estimate.quota ?? 0) - used), persistent });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [version]);
  return figures;
}

/** 1536 -> '1.5 KB', 3_500_000 -> '3.3 MB' (binary units, as the browser counts). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
