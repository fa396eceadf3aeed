import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { InviteRequest } from '@helix/shared/schemas/invite';
import { ApiError } from '../../api/api-error';
import { applyServerErrors } from '../../forms/server-errors';
import { zodRule } from '../../forms/zod-rule';
import { toastError, toastInfo, toastSuccess } from '../../ui/notify';
import { inviteUserOrQueue } from './users.api';

interface InviteValues {
  name: string;
  email: string;
}

/** Single Invite: name and e-mail; the server's message wins over 'Failed to invite User'. */
export function InviteUserModal({ onClose, onInvited }: { onClose(): void; onInvited(): void }) {
  const [form] = Form.useForm<InviteValues>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const parsed = InviteRequest.safeParse(values);
    if (!parsed.success) return;
    setBusy(true);
    try {
      const result = await inviteUserOrQueue(parsed.data);
      if (result.status === 'sent') toastSuccess(result.data.message);
      else toastInfo(MSG.savedForLater);
      onInvited();
    } catch (error) {
      const serverSaid =
        error instanceof ApiError && error.statusCode > 0 && error.message !== MSG.defaultError;
      toastError(serverSaid ? error.message : MSG.failedInviteUser);
      applyServerErrors(form, error, ['name', 'email']);
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title="Invite User"
      okText="Invite"
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<InviteValues> form={form} name="invite-user" layout="vertical" requiredMark={false}>
        <Form.Item label="Name" name="name" rules={[zodRule(InviteRequest, 'name')]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item label="Email" name="email" rules={[zodRule(InviteRequest, 'email')]}>
          <Input type="email" inputMode="email" autoComplete="off" onPressEnter={() => void submit()} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
