import { Button, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useEffect, useState } from 'react';
import { MSG } from '@helix/shared';
import type { RoleView } from '@helix/shared/schemas/role';
import { OfflineNotice } from '../../offline/offline-notice';
import { PendingTag } from '../../offline/outbox-panel';
import { useReloadOnOutboxChange } from '../../offline/pending-rows';
import { loadWithSnapshot } from '../../offline/snapshot';
import { useSnapshotLoad } from '../../offline/use-snapshot-load';
import { useSessionUser } from '../../session/use-session';
import { columnSearch } from '../../ui/column-search';
import { toastError } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { fetchPlatformUsers, type PlatformUser } from '../platform-users/platform-users.api';
import { fetchRoles } from '../roles/roles.api';
import { AssignRolesModal } from './assign-roles.modal';
import { listEmptyText } from '../../ui/list-states';

const loadPlatformUsers = (signal?: AbortSignal) => fetchPlatformUsers({ signal, toast: false });

/** /permissions: Name and Email of every user, their roles, and Assign Roles (Role.assign). */
export function PermissionsPage() {
  // What the server allows (the session's abilities), not re-derived here.
  const canAssign = Boolean(useSessionUser()?.abilities?.assignRoles);
  const { load, reload } = useSnapshotLoad('platform-users', loadPlatformUsers, MSG.failedLoadUsers);
  const [roles, setRoles] = useState<RoleView[]>([]);
  const [search, setSearch] = useState({ name: '', email: '' });
  const [assigning, setAssigning] = useState<PlatformUser | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    if (canAssign) {
      loadWithSnapshot('roles', () => fetchRoles({ signal: controller.signal, toast: false }))
        .then(({ data }) => setRoles(data))
        .catch(() => {
          if (!controller.signal.aborted) toastError(MSG.failedLoadRoles);
        });
    }
    return () => controller.abort();
  }, [canAssign]);

  const outbox = useReloadOnOutboxChange(reload);
  const pending = new Set(outbox.map((e) => e.target));

  const columns: TableColumnsType<PlatformUser> = [
    {
      title: 'Name',
      key: 'name',
      sorter: (a, b) => a.name.localeCompare(b.name),
      ...columnSearch<PlatformUser>({
        key: 'name',
        label: 'Name',
        value: (u) => u.name,
        search: search.name,
        onSearch: (name) => setSearch((s) => ({ ...s, name })),
      }),
    },
    {
      title: 'Email',
      key: 'email',
      sorter: (a, b) => a.email.localeCompare(b.email),
      ...columnSearch<PlatformUser>({
        key: 'email',
        label: 'Email',
        value: (u) => u.email,
        search: search.email,
        onSearch: (email) => setSearch((s) => ({ ...s, email })),
      }),
    },
    {
      title: 'Roles',
      key: 'roles',
      render: (_, u) => (
        <>
          {u.roles.map((r) => (
            <Tag key={r.id}>{r.name}</Tag>
          ))}
          <PendingTag pending={pending.has(`user:${u.id}`)} />
        </>
      ),
    },
    ...(canAssign
      ? [
          {
            title: 'Actions',
            key: 'actions',
            render: (_: unknown, u: PlatformUser) => (
              <Button size="small" onClick={() => setAssigning(u)} data-testid={`assign-roles-${u.id}`}>
                Assign Roles
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <section className="page permissions-page">
      <PageTitle title="Permissions" />
      <Typography.Title level={1} className="page-title">
        Permissions
      </Typography.Title>
      <OfflineNotice savedAt={load.status === 'ready' ? load.savedAt : null} />
      <Table<PlatformUser>
        // On a phone or tablet the table scrolls inside its card; the page keeps the screen's width.
        scroll={{ x: 'max-content' }}
        rowKey="id"
        columns={columns}
        dataSource={load.status === 'ready' ? load.data : []}
        locale={{ emptyText: listEmptyText(load.status, MSG.failedLoadUsers, MSG.noUsers) }}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
      />
      <AssignRolesModal
        user={assigning}
        roles={roles}
        onClose={() => setAssigning(null)}
        onSaved={() => reload()}
      />
    </section>
  );
}
