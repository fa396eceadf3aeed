import { Modal } from 'antd';
import { useEffect } from 'react';
import { MSG } from '@helix/shared';

/**
 * Log Out with edits still in the outbox: asks before they are dropped. Its own chunk, loaded by the
 * header only then (./header.tsx): the modal's code is not part of a page's first load.
 */
export function QueuedLogoutConfirm(props: {
  queued: number;
  onLeave: () => Promise<void>;
  onClose: () => void;
}) {
  const [modal, holder] = Modal.useModal();
  useEffect(() => {
    const shown = modal.confirm({
      title: MSG.logoutWithQueuedTitle,
      content: MSG.logoutWithQueued(props.queued),
      okText: MSG.logoutAnyway,
      okButtonProps: { danger: true },
      onOk: props.onLeave,
      afterClose: props.onClose,
    });
    return () => shown.destroy();
    // Shown once per mount; the header unmounts it when closed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return holder;
}
