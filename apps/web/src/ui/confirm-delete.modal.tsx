import { Modal } from 'antd';
import { useState, type ReactNode } from 'react';
import { toastSuccess } from './notify';

/**
 * A delete confirmation (administration-content 2 and 9: width 350, Yes / No, Yes in red). Yes runs
 * `remove`; its answer's message (else `deleted`) is the success toast. A failure keeps the dialog for
 * another try or No; `remove` says it (the client's toast, or its own).
 */
export function ConfirmDeleteModal({
  title,
  body,
  deleted,
  remove,
  onDeleted,
  onClose,
}: {
  title: string;
  body: ReactNode;
  deleted: string;
  remove(): Promise<{ message?: string } | undefined>;
  onDeleted(): void;
  onClose(): void;
}) {
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    let answer: { message?: string } | undefined;
    try {
      answer = await remove();
    } catch {
      setBusy(false);
      return;
    }
    toastSuccess(answer?.message || deleted);
    onDeleted();
  };

  return (
    <Modal
      open
      width={350}
      title={title}
      okText="Yes"
      cancelText="No"
      okButtonProps={{ danger: true }}
      confirmLoading={busy}
      onOk={() => void confirm()}
      onCancel={onClose}
      destroyOnHidden
    >
      <p>{body}</p>
    </Modal>
  );
}
