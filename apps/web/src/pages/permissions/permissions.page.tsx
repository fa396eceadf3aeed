import { Button, Tag, Typography } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { PLATFORM_USERS_SORTS, type PlatformUserPage } from '@helix/shared/schemas/platform-user';
import { OfflineNotice } from '../../offline/offline-notice';
import { PendingTag } from '../../offline/pending-tag';
import { useReloadOnOutboxChange } from '../../offline/pending-rows';
import { useSnapshotLoad } from '../../offline/use-snapshot-load';
import { HighlightText } from '../../ui/highlight-text';
import { ListSearch } from '../../ui/list-search';
import { toastError } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { useServerList } from '../../ui/use-server-list';
import { fetchPlatformUsersPage, type PlatformUser } from '../platform-users/platform-users.api';
import { loadRoles, ROLES_SNAPSHOT } from '../roles/roles.queries';
import { AssignRolesModal } from './assign-roles.modal';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';

type Sort = (typeof PLATFORM_USERS_SORTS)[number];

/**
 * /permissions: Name and Email of every user, their roles, and Assign Roles (Role.assign); one page at
 * a time, newest first, searched, sorted and paged by the server (docs/lists-at-scale.md). Pages seen
 * online are kept for offline (Assign Roles queues in the outbox).
 */
export function PermissionsPage() {
  const list = useServerList<PlatformUser, Sort, PlatformUserPage>({
    fetchPage: fetchPlatformUsersPage,
    sorts: PLATFORM_USERS_SORTS,
    sort: 'createdAt',
    order: 'desc',
    snapshot: 'platform-users',
    texts: { failed: MSG.failedLoadUsers, empty: MSG.noUsers, noMatch: MSG.usersNoMatch },
    onError: () => toastError(MSG.failedLoadUsers),
  });
  const { reload } = list;
  const search = list.query.search ?? '';
  // What the server allows with each user (their abilities), not re-derived here.
  const canAssign = list.rows.some((u) => u.abilities.assignRoles);
  const [assigning, setAssigning] = useState<PlatformUser | null>(null);

  // The roles to assign (the roles list's, kept for offline too).
  const { load: rolesLoad } = useSnapshotLoad(ROLES_SNAPSHOT, loadRoles, MSG.failedLoadRoles, {
    enabled: canAssign,
  });
  const roles = rolesLoad.status === 'ready' ? rolesLoad.data : [];

  const outbox = useReloadOnOutboxChange(reload);
  const pending = new Set(outbox.map((e) => e.target));

  const columns: ResponsiveColumn<PlatformUser>[] = [
    {
      title: 'Name',
      key: 'name',
      role: 'title',
      sorter: true,
      sortOrder: list.sortOrder('name'),
      render: (_: unknown, u: PlatformUser) => <HighlightText text={u.name} search={search} />,
    },
    {
      title: 'Email',
      key: 'email',
      sorter: true,
      sortOrder: list.sortOrder('email'),
      render: (_: unknown, u: PlatformUser) => <HighlightText text={u.email} search={search} />,
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
            role: 'actions' as const,
            render: (_: unknown, u: PlatformUser) =>
              u.abilities.assignRoles ? (
                <Button size="small" onClick={() => setAssigning(u)} data-testid={`assign-roles-${u.id}`}>
                  Assign Roles
                </Button>
              ) : null,
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
      <OfflineNotice savedAt={list.savedAt} />
      <ListSearch list={list} testId="users-search" />
      <ResponsiveTable<PlatformUser> rowKey="id" columns={columns} {...list.tableProps} />
      <AssignRolesModal
        user={assigning}
        roles={roles}
        onClose={() => setAssigning(null)}
        onSaved={() => reload()}
      />
    </section>
  );
}
