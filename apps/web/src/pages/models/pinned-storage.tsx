import { CloudOutlined } from '@ant-design/icons';
import { MSG } from '@helix/shared';
import { formatBytes, useStorageEstimate } from '../../offline/use-pinned-models';

/**
 * Space used and left on this device (the browser's estimate for the whole site: pinned files, the
 * app, cached lists), and whether the browser keeps it under storage pressure (persistent storage).
 */
export function PinnedStorage({ pinnedCount, pinnedBytes }: { pinnedCount: number; pinnedBytes: number }) {
  const figures = useStorageEstimate(`${pinnedCount}:${pinnedBytes}`);
  if (!figures) return null;
  return (
    <p className="pinned-storage" data-testid="pinned-storage" role="status">
      <CloudOutlined aria-hidden />{' '}
      <span>{MSG.pinnedStorage(formatBytes(figures.used), formatBytes(figures.free))}</span>
      {pinnedCount > 0 && (
        <span className="pinned-storage-note">
          {' · '}
          {pinnedCount} kept offline ({formatBytes(pinnedBytes)}) ·{' '}
          {figures.persistent ? MSG.pinnedStoragePersistent : MSG.pinnedStorageBestEffort}
        </span>
      )}
    </p>
  );
}
