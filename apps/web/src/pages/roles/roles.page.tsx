import { Button, Modal, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { MSG } from '@helix/shared';
import type { RoleView } from '@helix/shared/schemas/role';
import { OfflineNotice } from '../../offline/offline-notice';
import type { OutboxRow } from '../../offline/offline-db';
import { PendingTag } from '../../offline/pending-tag';
import { useReloadOnOutboxChange } from '../../offline/pending-rows';
import { useSnapshotLoad } from '../../offline/use-snapshot-load';
import { abilitiesOf } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { columnSearch } from '../../ui/column-search';
import { toastInfo, toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { RoleFormModal } from './role-form.modal';
import { RoleViewModal } from './role-view.modal';
import { deleteRoleOrQueue } from './roles.api';
import { loadRoles, permissionsQuery, ROLES_SNAPSHOT } from './roles.queries';
import { tableStateText } from '../../ui/query-state';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';

type RoleRow = RoleView & { pending?: boolean };

/** The listing as it will be once the queued edits are sent: optimistic, each marked pending. */
export function withPendingEdits(roles: RoleView[], outbox: OutboxRow[]): RoleRow[] {
  const rows: RoleRow[] = roles.map((r) => ({ ...r }));
  for (const entry of outbox) {
    const body = entry.body as { id: number; name: string; permissions?: number[] };
    if (entry.kind === 'role.create') {
      rows.push({
        id: -(entry.seq ?? 0),
        name: body.name,
        builtIn: false,
        permissions: [],
        userCount: 0,
        version: 0,
        // Not on the server yet: nothing to do with it until it is.
        abilities: { edit: false, delete: false },
        pending: true,
      });
    } else if (entry.kind === 'role.update' || entry.kind === 'role.delete') {
      const row = rows.find((r) => r.id === body.id);
      if (!row) continue;
      row.pending = true;
      if (entry.kind === 'role.update') row.name = body.name;
    }
  }
  return rows;
}

/** /roles: Name search and sort, View, Edit, Delete and Create Role (platform admins). */
export function RolesPage() {
  const user = useSessionUser();
  // What the server allows: the session's (Create Role) and each role's (Edit, Delete).
  const canCreate = abilitiesOf(user).createRole;
  const { load, reload } = useSnapshotLoad(ROLES_SNAPSHOT, loadRoles, MSG.failedLoadRoles);
  const [search, setSearch] = useState('');
  const [viewing, setViewing] = useState<RoleView | null>(null);
  const [editing, setEditing] = useState<{ role: RoleView | null } | null>(null);
  const [modal, modalContext] = Modal.useModal();

  // The transfer list's permissions, for creating a role or editing one.
  const mayEditSome = load.status === 'ready' && load.data.some((role) => role.abilities.edit);
  const permissions = useQuery({ ...permissionsQuery(), enabled: canCreate || mayEditSome }).data ?? [];

  const confirmDelete = (role: RoleView) => {
    void modal.confirm({
      title: MSG.deleteRoleTitle,
      content: MSG.deleteRoleBody,
      okText: 'Yes',
      cancelText: 'No',
      width: 350,
      onOk: async () => {
        const result = await deleteRoleOrQueue(role);
        if (result.status === 'sent') toastSuccess(result.data.message);
        else toastInfo(MSG.savedForLater);
        reload();
      },
    });
  };

  const outbox = useReloadOnOutboxChange(reload);
  const rows = useMemo(
    () => (load.status === 'ready' ? withPendingEdits(load.data, outbox) : []),
    [load, outbox],
  );

  const nameSearch = columnSearch<RoleRow>({
    key: 'name',
    label: 'Name',
    value: (r) => r.name,
    search,
    onSearch: setSearch,
  });

  const columns: ResponsiveColumn<RoleRow>[] = [
    {
      title: 'Name',
      role: 'title',
      dataIndex: 'name',
      key: 'name',
      sorter: (a, b) => a.name.localeCompare(b.name),
      ...nameSearch,
      render: (value: unknown, role: RoleRow, index: number) => (
        <Space>
          {nameSearch.render ? (nameSearch.render(value, role, index) as React.ReactNode) : role.name}
          <PendingTag pending={Boolean(role.pending)} />
        </Space>
      ),
    },
    {
      title: 'Actions',
      key: 'actions',
      role: 'actions',
      width: 260,
      render: (_, role) =>
        role.id < 0 ? null : (
          <Space>
            <Button size="small" onClick={() => setViewing(role)} data-testid={`view-role-${role.id}`}>
              View
            </Button>
            {role.abilities.edit && (
              <Button size="small" onClick={() => setEditing({ role })} data-testid={`edit-role-${role.id}`}>
                Edit
              </Button>
            )}
            {/* A built-in role is never deleted: its Delete stays, disabled, for whoever may change it. */}
            {(role.abilities.delete || (role.builtIn && role.abilities.edit)) && (
              <Button
                size="small"
                danger
                disabled={!role.abilities.delete}
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
      <OfflineNotice savedAt={load.status === 'ready' ? load.savedAt : null} />
      <ResponsiveTable<RoleRow>
        rowKey="id"
        columns={columns}
        dataSource={rows}
        locale={{
          emptyText: tableStateText(load.status, {
            failed: MSG.failedLoadRoles,
            empty: MSG.noRoles,
            onRetry: reload,
          }),
        }}
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
