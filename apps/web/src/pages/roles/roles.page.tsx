import { Button, Modal, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { MSG } from '@helix/shared';
import type { PermissionView, RoleView } from '@helix/shared/schemas/role';
import { hasPermission } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { columnSearch } from '../../ui/column-search';
import { toastError, toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { RoleFormModal } from './role-form.modal';
import { RoleViewModal } from './role-view.modal';
import { deleteRole, fetchPermissions, fetchRoles } from './roles.api';

type Load = { status: 'loading' } | { status: 'ready'; roles: RoleView[] } | { status: 'failed' };

/** /roles: Name search and sort, View, Edit, Delete and Create Role (platform admins). */
export function RolesPage() {
  const user = useSessionUser();
  const canCreate = hasPermission(user, 'Role.create');
  const canUpdate = hasPermission(user, 'Role.update');
  const canDelete = hasPermission(user, 'Role.delete');
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [permissions, setPermissions] = useState<PermissionView[]>([]);
  const [search, setSearch] = useState('');
  const [viewing, setViewing] = useState<RoleView | null>(null);
  const [editing, setEditing] = useState<{ role: RoleView | null } | null>(null);
  const [modal, modalContext] = Modal.useModal();

  const reload = useCallback((signal?: AbortSignal) => {
    fetchRoles({ signal, toast: false })
      .then((roles) => setLoad({ status: 'ready', roles }))
      .catch(() => {
        if (signal?.aborted) return;
        toastError(MSG.failedLoadRoles);
        setLoad({ status: 'failed' });
      });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    reload(controller.signal);
    if (canCreate || canUpdate) {
      fetchPermissions({ signal: controller.signal, toast: false })
        .then(setPermissions)
        .catch(() => undefined);
    }
    return () => controller.abort();
  }, [reload, canCreate, canUpdate]);

  const confirmDelete = (role: RoleView) => {
    void modal.confirm({
      title: MSG.deleteRoleTitle,
      content: MSG.deleteRoleBody,
      okText: 'Yes',
      cancelText: 'No',
      width: 350,
      onOk: async () => {
        const answer = await deleteRole(role.id, role.name);
        toastSuccess(answer.message);
        reload();
      },
    });
  };

  const columns: TableColumnsType<RoleView> = [
    {
      title: 'Name',
      dataIndex: 'name',
      key: 'name',
      sorter: (a, b) => a.name.localeCompare(b.name),
      ...columnSearch<RoleView>({
        key: 'name',
        label: 'Name',
        value: (r) => r.name,
        search,
        onSearch: setSearch,
      }),
    },
    {
      title: 'Actions',
      key: 'actions',
      width: 260,
      render: (_, role) => (
        <Space>
          <Button size="small" onClick={() => setViewing(role)} data-testid={`view-role-${role.id}`}>
            View
          </Button>
          {canUpdate && (
            <Button size="small" onClick={() => setEditing({ role })} data-testid={`edit-role-${role.id}`}>
              Edit
            </Button>
          )}
          {canDelete && (
            <Button
              size="small"
              danger
              disabled={role.builtIn}
              title={role.builtIn ? MSG.builtInRoleLocked : undefined}
              onClick={() => confirmDelete(role)}
              data-testid={`delete-role-${role.id}`}
            >
              Delete
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <section className="page roles-page">
      <PageTitle title="Roles" />
      {modalContext}
      <div className="page-toolbar">
        <Typography.Title level={1} className="page-title">
          Roles
        </Typography.Title>
        {canCreate && (
          <Button type="primary" onClick={() => setEditing({ role: null })} data-testid="create-role">
            Create Role
          </Button>
        )}
      </div>
      <Table<RoleView>
        rowKey="id"
        columns={columns}
        dataSource={load.status === 'ready' ? load.roles : []}
        loading={load.status === 'loading'}
        locale={{ emptyText: load.status === 'failed' ? MSG.failedLoadRoles : MSG.noRoles }}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
      />
      <RoleViewModal role={viewing} onClose={() => setViewing(null)} />
      <RoleFormModal
        open={editing !== null}
        role={editing?.role ?? null}
        permissions={permissions}
        onClose={() => setEditing(null)}
        onSaved={() => reload()}
      />
    </section>
  );
}
