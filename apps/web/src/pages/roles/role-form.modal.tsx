import { Form, Input, Modal, Transfer } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RoleSave, type PermissionView, type RoleView } from '@helix/shared/schemas/role';
import { zodRule } from '../../forms/zod-rule';
import { applyServerErrors } from '../../forms/server-errors';
import { MSG } from '@helix/shared';
import { toastInfo, toastSuccess } from '../../ui/notify';
import { saveRoleOrQueue } from './roles.api';
import { roleKeys, rolePermissionsQuery } from './roles.queries';

/** The spec's roles lists height. */
export const ROLE_LIST_HEIGHT = 270;

interface Props {
  /** null: create; a role: edit it. */
  role: RoleView | null;
  permissions: PermissionView[];
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/** Create Role and Edit: the name and the Unassigned/Assigned transfer list. */
export function RoleFormModal({ role, permissions, open, onClose, onSaved }: Props) {
  const [form] = Form.useForm<{ name: string }>();
  const [assigned, setAssigned] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);

  const queryClient = useQueryClient();
  // What the role holds as the server says now (offline the listing's stays).
  const held = useQuery({ ...rolePermissionsQuery(role?.id ?? 0, false), enabled: open && role !== null });
  const loading = held.isFetching;

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue({ name: role?.name ?? '' });
    // What the listing says the role holds, until the server's answer replaces it.
    setAssigned(role ? role.permissions.map((p) => String(p.id)) : []);
  }, [open, role, form]);
  useEffect(() => {
    if (open && held.data) setAssigned(held.data.map((p) => String(p.id)));
  }, [open, held.data]);

  const submit = async () => {
    // Invalid fields show their errors under the fields: nothing to send.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const { name } = values;
    setSaving(true);
    try {
      const result = await saveRoleOrQueue(
        { id: role?.id ?? 0, name, permissions: assigned.map(Number) },
        role,
      );
      if (result.status === 'sent') toastSuccess(result.data.message);
      else toastInfo(MSG.savedForLater);
      void queryClient.invalidateQueries({ queryKey: roleKeys.all });
      onSaved();
      onClose();
    } catch (error) {
      // The client has shown the server's message ('Role Name already exists', 'No change in Data!').
      applyServerErrors(form, error, ['name']);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={role ? 'Edit Role' : 'Create Role'}
      open={open}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="Save"
      confirmLoading={saving}
      width={720}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="role-form">
        <Form.Item label="Name" name="name" rules={[zodRule(RoleSave, 'name')]} required>
          <Input
            placeholder="Name of the role"
            maxLength={60}
            disabled={role?.builtIn}
            data-testid="role-name"
          />
        </Form.Item>
      </Form>
      <Transfer
        dataSource={permissions.map((p) => ({ key: String(p.id), title: p.name }))}
        titles={['Unassigned', 'Assigned']}
        targetKeys={assigned}
        onChange={(keys) => setAssigned(keys.map(String))}
        render={(item) => item.title}
        showSearch
        disabled={loading}
        styles={{ section: { width: 300, height: ROLE_LIST_HEIGHT } }}
        data-testid="role-transfer"
      />
    </Modal>
  );
}
