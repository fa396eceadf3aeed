import { List, Modal } from 'antd';
import { MSG } from '@helix/shared';
import { useQuery } from '@tanstack/react-query';
import type { RoleView } from '@helix/shared/schemas/role';
import { QueryEmpty, QueryState } from '../../ui/query-state';
import { rolePermissionsQuery } from './roles.queries';
import { ROLE_LIST_HEIGHT } from './role-form.modal';

/** View: the role's permissions, read-only. */
export function RoleViewModal({ role, onClose }: { role: RoleView | null; onClose: () => void }) {
  const query = useQuery({ ...rolePermissionsQuery(role?.id ?? 0), enabled: role !== null });

  return (
    <Modal title={role ? `Role: ${role.name}` : 'Role'} open={role !== null} onCancel={onClose} footer={null}>
      <QueryState query={query} failed={MSG.failedLoadRolePermissions} loading="Loading permissions">
        {(permissions) => (
          <List
            size="small"
            bordered
            style={{ maxHeight: ROLE_LIST_HEIGHT, overflowY: 'auto' }}
            dataSource={permissions}
            locale={{ emptyText: <QueryEmpty message={MSG.noRolePermissions} /> }}
            renderItem={(p) => <List.Item data-testid="role-permission">{p.name}</List.Item>}
          />
        )}
      </QueryState>
    </Modal>
  );
}
