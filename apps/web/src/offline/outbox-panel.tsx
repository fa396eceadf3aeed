import { CloudSyncOutlined } from '@ant-design/icons';
import { Badge, Button, Drawer, Empty, List, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import type { OutboxRow, OutboxState } from './offline-db';
import { discardEntry, retryEntry, retryOnCurrentVersion, syncNow } from './outbox';
import { useOutbox } from './use-outbox';

const STATE_COLOURS: Record<OutboxState, string> = {
  pending: 'gold',
  syncing: 'blue',
  refused: 'red',
  conflict: 'volcano',
};

function EntryActions({ row }: { row: OutboxRow }) {
  const seq = row.seq!;
  return (
    <Space wrap>
      {row.state === 'conflict' && (
        <Button size="small" type="primary" onClick={() => void retryOnCurrentVersion(seq)}>
          {MSG.outboxRetryCurrent}
        </Button>
      )}
      {row.state === 'refused' && (
        <Button size="small" onClick={() => void retryEntry(seq)}>
          {MSG.outboxRetry}
        </Button>
      )}
      <Popconfirm
        title={MSG.outboxDiscardConfirm}
        okText={MSG.outboxDiscard}
        okButtonProps={{ danger: true }}
        onConfirm={() => discardEntry(seq)}
      >
        <Button size="small" danger disabled={row.state === 'syncing'}>
          {MSG.outboxDiscard}
        </Button>
      </Popconfirm>
    </Space>
  );
}

/**
 * The header's Outbox button: a badge with the number of edits not yet accepted by the server, and a
 * drawer listing them (pending, syncing, refused, conflict) with the server's reason, Sync now, retry
 * (on the current version for a conflict) and discard.
 */
export function OutboxPanel() {
  const rows = useOutbox();
  const [open, setOpen] = useState(false);
  const needsAttention = rows.some((r) => r.state === 'refused' || r.state === 'conflict');
  return (
    <>
      <Badge count={rows.length} size="small" color={needsAttention ? 'red' : 'gold'} offset={[-4, 4]}>
        <Button
          type="text"
          icon={<CloudSyncOutlined />}
          aria-label={`${MSG.outboxTitle} (${rows.length})`}
          data-testid="outbox-button"
          onClick={() => setOpen(true)}
        />
      </Badge>
      <Drawer
        title={MSG.outboxTitle}
        open={open}
        onClose={() => setOpen(false)}
        extra={
          <Button onClick={() => void syncNow()} disabled={rows.length === 0} data-testid="outbox-sync">
            {MSG.outboxSyncNow}
          </Button>
        }
      >
        {rows.length === 0 ? (
          <Empty description={MSG.outboxEmpty} />
        ) : (
          <List<OutboxRow>
            dataSource={rows}
            rowKey={(r) => r.key}
            renderItem={(row) => (
              <List.Item
                data-testid="outbox-entry"
                data-state={row.state}
                actions={[<EntryActions key="a" row={row} />]}
              >
                <List.Item.Meta
                  title={
                    <Space>
                      <Tag color={STATE_COLOURS[row.state]}>{MSG.outboxStates[row.state]}</Tag>
                      <span>{row.label}</span>
                    </Space>
                  }
                  description={
                    row.errorMessage ? (
                      <Typography.Text type="danger" data-testid="outbox-reason">
                        {row.errorMessage}
                      </Typography.Text>
                    ) : null
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Drawer>
    </>
  );
}

/** The "Pending sync" mark on a row whose edit waits in the outbox. */
export function PendingTag({ pending }: { pending: boolean }) {
  return pending ? (
    <Tag color="gold" data-testid="pending-sync">
      {MSG.pendingSync}
    </Tag>
  ) : null;
}
