import { List, Modal, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { RoleView } from '@helix/shared/schemas/role';
import { rolePermissionsQuery } from './roles.queries';
import { ROLE_LIST_HEIGHT } from './role-form.modal';

/** View: the role's permissions, read-only. */
export function RoleViewModal({ role, onClose }: { role: RoleView | null; onClose: () => void }) {
  const query = useQuery({ ...rolePermissionsQuery(role?.id ?? 0), enabled: role !== null });
  // A failed read shows no permissions (the client has shown the server's message).
  const permissions = query.isError ? [] : (query.data ?? null);

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
