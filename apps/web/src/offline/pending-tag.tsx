import { Tag } from 'antd';
import { MSG } from '@helix/shared';

/** The "Pending sync" mark on a row whose edit waits in the outbox. */
export function PendingTag({ pending }: { pending: boolean }) {
  return pending ? (
    <Tag color="gold" data-testid="pending-sync">
      {MSG.pendingSync}
    </Tag>
  ) : null;
}
