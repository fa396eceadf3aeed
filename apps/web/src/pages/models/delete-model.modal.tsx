import { Modal } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { deleteModel, type Model } from '../../models/models.api';
import { toastSuccess } from '../../ui/notify';

/** Delete confirmation: width 350, Yes / No (administration-content 2 and 9). */
export function DeleteModelModal({
  model,
  onClose,
  onDeleted,
}: {
  model: Model;
  onClose(): void;
  onDeleted(id: number): void;
}) {
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    try {
      const answer = await deleteModel(model.id);
      toastSuccess(answer?.message || MSG.modelDeleted);
      onDeleted(model.id);
    } catch {
      // The client has shown the server's message; the dialog stays for another try or No.
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      width={350}
      title={MSG.deleteModelTitle}
      okText="Yes"
      cancelText="No"
      okButtonProps={{ danger: true }}
      confirmLoading={busy}
      onOk={() => void confirm()}
      onCancel={onClose}
      destroyOnHidden
    >
      <p>{MSG.deleteModelBody(model.name)}</p>
    </Modal>
  );
}
