import { CloudSyncOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { MSG } from '@helix/shared';
import { useOutbox } from './use-outbox';

const OutboxDrawer = lazy(() => import('./outbox-drawer').then((m) => ({ default: m.OutboxDrawer })));

/**
 * The header's Outbox button: a badge with the number of edits not yet accepted by the server, and a
 * drawer listing them (./outbox-drawer.tsx, loaded on first use: no page's first load carries it).
 */
export function OutboxPanel() {
  const rows = useOutbox();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const needsAttention = rows.some((r) => r.state === 'refused' || r.state === 'conflict');
  return (
    <>
      <span className="outbox-button">
        <Button
          type="text"
          icon={<CloudSyncOutlined />}
          aria-label={`${MSG.outboxTitle} (${rows.length})`}
          data-testid="outbox-button"
          onClick={() => {
            setOpened(true);
            setOpen(true);
          }}
        />
        {/* The count over the button's corner (antd's Badge brought 11 kB of styles to every page). */}
        {rows.length > 0 && (
          <span className={needsAttention ? 'outbox-count needs-attention' : 'outbox-count'} aria-hidden>
            {rows.length}
          </span>
        )}
      </span>
      {/* The drawer's code (a list, buttons, confirmations) loads when it is first opened. */}
      {opened && (
        <Suspense fallback={null}>
          <OutboxDrawer rows={rows} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
