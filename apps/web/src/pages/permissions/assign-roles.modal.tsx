import { Form, Modal, Select } from 'antd';
import { useEffect, useState } from 'react';
import { MSG } from '@helix/shared';
import { AssignRoles, type RoleView } from '@helix/shared/schemas/role';
import { zodRule } from '../../forms/zod-rule';
import { applyServerErrors } from '../../forms/server-errors';
import { toastInfo, toastSuccess } from '../../ui/notify';
import type { PlatformUser } from '../platform-users/platform-users.api';
import { assignRolesOrQueue } from '../roles/roles.api';

interface Props {
  user: PlatformUser | null;
  roles: RoleView[];
  onClose: () => void;
  onSaved: () => void;
}

/** Assign Roles: several roles per user (POST /user/assignRoles). */
export function AssignRolesModal({ user, roles, onClose, onSaved }: Props) {
  const [form] = Form.useForm<{ id: number; roles: number[] }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (user) form.setFieldsValue({ id: user.id, roles: user.roles.map((r) => r.id) });
  }, [user, form]);

  const submit = async () => {
    // Invalid fields show their errors under the fields: nothing to send.
    const values = await form.validateFields().catch(() => null);
    if (!values || !user) return;
    setSaving(true);
    try {
      const result = await assignRolesOrQueue(user, values.roles);
      if (result.status === 'sent') toastSuccess(result.data.message);
      else toastInfo(MSG.savedForLater);
      onSaved();
      onClose();
    } catch (error) {
      applyServerErrors(form, error, ['roles']);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={user ? `Assign Roles: ${user.name}` : 'Assign Roles'}
      open={user !== null}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="Save"
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="assign-roles">
        <Form.Item name="id" hidden>
          <input type="hidden" />
        </Form.Item>
        <Form.Item label="Roles" name="roles" rules={[zodRule(AssignRoles, 'roles')]}>
          <Select
            mode="multiple"
            options={roles.map((r) => ({ value: r.id, label: r.name }))}
            placeholder="Choose roles"
            optionFilterProp="label"
            data-testid="assign-roles-select"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
