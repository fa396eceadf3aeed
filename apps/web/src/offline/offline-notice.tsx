import { Alert } from 'antd';
import dayjs from 'dayjs';
import { MSG } from '@helix/shared';

/** "Offline: showing what was saved at {time}" above a page that shows its cached copy. */
export function OfflineNotice({ savedAt }: { savedAt: number | null | undefined }) {
  if (!savedAt) return null;
  return (
    <Alert
      type="warning"
      showIcon
      className="offline-notice"
      data-testid="offline-notice"
      title={MSG.offlineSavedAt(dayjs(savedAt).format('D MMM YYYY, HH:mm'))}
      style={{ marginBottom: 16 }}
    />
  );
}
