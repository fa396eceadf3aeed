import { Modal } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { toastError, toastSuccess } from '../../ui/notify';
import { deleteUser } from './users.api';

/** 'Are You Sure?' / 'Do you want to delete this user?' (width 350, Yes / No). */
export function DeleteUserModal({
  user,
  onClose,
  onDeleted,
}: {
  user: { id: number; email: string };
  onClose(): void;
  onDeleted(id: number): void;
}) {
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    try {
      const answer = await deleteUser(user, { toast: false });
      toastSuccess(answer.message || MSG.userDeleted);
      onDeleted(user.id);
    } catch (error) {
      // The server's message when it gave one ('The owner ... cannot be deleted'), else the spec's.
      toastError(
        error instanceof Error && error.message !== MSG.defaultError ? error.message : MSG.failedDeleteUser,
      );
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      width={350}
      title={MSG.deleteUserTitle}
      okText="Yes"
      cancelText="No"
      okButtonProps={{ danger: true }}
      confirmLoading={busy}
      onOk={() => void confirm()}
      onCancel={onClose}
      destroyOnHidden
    >
      <p>{MSG.deleteUserBody}</p>
    </Modal>
  );
}
