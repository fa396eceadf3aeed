import { List, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import type { PermissionView, RoleView } from '@helix/shared/schemas/role';
import { fetchRolePermissions } from './roles.api';
import { ROLE_LIST_HEIGHT } from './role-form.modal';

/** View: the role's permissions, read-only. */
export function RoleViewModal({ role, onClose }: { role: RoleView | null; onClose: () => void }) {
  const [permissions, setPermissions] = useState<PermissionView[] | null>(null);

  useEffect(() => {
    setPermissions(null);
    if (!role) return;
    const controller = new AbortController();
    fetchRolePermissions(role.id, { signal: controller.signal })
      .then((answer) => setPermissions(answer.permissions))
      .catch(() => setPermissions([]));
    return () => controller.abort();
  }, [role]);

  return (
    <Modal title={role ? `Role: ${role.name}` : 'Role'} open={role !== null} onCancel={onClose} footer={null}>
      {permissions === null ? (
        <Spin aria-label="Loading permissions" />
      ) : (
        <List
          size="small"
          bordered
          style={{ maxHeight: ROLE_LIST_HEIGHT, overflowY: 'auto' }}
          dataSource={permissions}
          locale={{ emptyText: 'No permissions' }}
          renderItem={(p) => <List.Item data-testid="role-permission">{p.name}</List.Item>}
        />
      )}
    </Modal>
  );
}
