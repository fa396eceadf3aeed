import { Button, Drawer, Empty, List, Popconfirm, Space, Tag, Typography } from 'antd';
import { MSG } from '@helix/shared';
import type { OutboxRow, OutboxState } from './offline-db';
import { discardEntry, retryEntry, retryOnCurrentVersion, syncNow } from './outbox';

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
 * The outbox's drawer: the edits not yet accepted by the server (pending, syncing, refused, conflict)
 * with the server's reason, Sync now, retry (on the current version for a conflict) and discard.
 * Loaded when the header's Outbox button is first pressed (./outbox-panel.tsx).
 */
export function OutboxDrawer({
  rows,
  open,
  onClose,
}: {
  rows: OutboxRow[];
  open: boolean;
  onClose: () => void;
}) {
  return (
    <Drawer
      title={MSG.outboxTitle}
      open={open}
      onClose={onClose}
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
  );
}
