import { DeleteOutlined, DownOutlined, EyeOutlined, MoreOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { MSG } from '@helix/shared';
import {
  TENANT_USERS_FIRST_PAGE,
  TENANT_USERS_SORTS,
  type TenantUserPage,
  type TenantUserView,
} from '@helix/shared/schemas/tenant-user';
import { OfflineNotice } from '../../offline/offline-notice';
import { PendingTag } from '../../offline/pending-tag';
import { useReloadOnOutboxChange } from '../../offline/pending-rows';
import { abilitiesOf } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { HighlightText } from '../../ui/highlight-text';
import { ListSearch } from '../../ui/list-search';
import { toastError, toastSuccess } from '../../ui/notify';
import { useServerList } from '../../ui/use-server-list';
import { PageTitle } from '../../ui/page-title';
import { ExportMenu, type ExportFormat } from '../../ui/export-menu';
import { PopoverMenu } from '../../ui/popover-menu';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';
import { downloadTable } from '../../ui/download-table';
import { withPendingInvites, type UserRow } from './pending-invites';
import { fetchTenantUsers, fetchTenantUsersPage, resendInvite } from './users.api';
import { usersExportTable } from './users-export';

// The dialogs load when first opened: the list's first screen does not evaluate their forms.
const InviteUserModal = lazy(() =>
  import('./invite-user.modal').then((m) => ({ default: m.InviteUserModal })),
);
const DeleteUserModal = lazy(() =>
  import('./delete-user.modal').then((m) => ({ default: m.DeleteUserModal })),
);

type Sort = (typeof TENANT_USERS_SORTS)[number];

/**
 * /user/settings/users-list (owner with User.listing.view): one page of the school's users at a time,
 * searched (name or e-mail, highlighted), sorted and paged by the server (docs/lists-at-scale.md); a
 * row menu (View, Delete), Resend Email for users without a password, 'Total Users: n/limit', Add
 * Users (Single Invite, Bulk Invite) and Export of every matching user (name, e-mail, roles, status,
 * created, last login). Single invites queued offline are rows marked "Pending sync" (without
 * actions) on the first page until the server has them. Pages seen online are kept for offline.
 */
export function UsersListPage() {
  const navigate = useNavigate();
  // What the server allows: the session's (Add Users) and each row's (resend, view, delete).
  const abilities = abilitiesOf(useSessionUser());
  const canInvite = abilities.inviteUsers;
  const list = useServerList<TenantUserView, Sort, TenantUserPage>({
    fetchPage: fetchTenantUsersPage,
    sorts: TENANT_USERS_SORTS,
    // The first page the server render asks (src/server-render/route-prefetch.ts) is the same.
    sort: TENANT_USERS_FIRST_PAGE.sort,
    order: TENANT_USERS_FIRST_PAGE.order,
    pageSize: TENANT_USERS_FIRST_PAGE.pageSize,
    // A server-rendered list came with its first page under this key (src/server-render/render-page.server.tsx).
    snapshot: 'tenant-users',
    texts: { failed: MSG.failedLoadUsers, empty: MSG.noTenantUsers, noMatch: MSG.usersNoMatch },
    onError: () => toastError(MSG.failedLoadUsers),
  });
  const search = list.query.search ?? '';
  const [inviting, setInviting] = useState(false);
  const [deleting, setDeleting] = useState<TenantUserView | null>(null);
  const [resending, setResending] = useState<number | null>(null);

  const { reload, data } = list;
  const outbox = useReloadOnOutboxChange(reload);
  // Invites still queued on this device: rows of the first page (the server does not have them yet).
  const users = useMemo(
    () => (list.query.page === 1 && !search ? withPendingInvites(list.rows, outbox) : list.rows),
    [list.rows, list.query.page, search, outbox],
  );
  const full = data ? data.totalUsers >= data.userLimit : true;

  const resend = async (user: TenantUserView) => {
    setResending(user.id);
    try {
      const answer = await resendInvite(user);
      toastSuccess(answer.message);
    } catch {
      // The client showed the server's message.
    } finally {
      setResending(null);
    }
  };

  const columns: ResponsiveColumn<UserRow>[] = [
    {
      title: 'Name',
      key: 'name',
      role: 'title',
      sorter: true,
      sortOrder: list.sortOrder('name'),
      render: (_: unknown, user: UserRow) => (
        <Space>
          <HighlightText text={user.name} search={search} />
          <PendingTag pending={Boolean(user.pending)} />
        </Space>
      ),
    },
    {
      title: 'Email',
      key: 'email',
      sorter: true,
      sortOrder: list.sortOrder('email'),
      render: (_: unknown, user: UserRow) => <HighlightText text={user.email} search={search} />,
    },
    {
      title: '',
      key: 'resend',
      role: 'actions',
      render: (_, user) =>
        !user.pending && user.abilities.resend ? (
          <Button
            type="link"
            size="small"
            loading={resending === user.id}
            onClick={() => void resend(user)}
            data-testid={`resend-${user.id}`}
          >
            Resend Email
          </Button>
        ) : null,
    },
    {
      title: 'Actions',
      key: 'actions',
      role: 'actions',
      width: 90,
      render: (_, user) =>
        user.pending ? null : (
          <PopoverMenu
            label={`Actions for ${user.name}`}
            items={[
              { key: 'view', label: 'View', icon: <EyeOutlined />, disabled: !user.abilities.view },
              {
                key: 'delete',
                label: 'Delete',
                icon: <DeleteOutlined />,
                danger: true,
                disabled: !user.abilities.delete,
              },
            ]}
            onSelect={(key) => {
              if (key === 'view') void navigate(`/user/settings/users-list/user-detail/${user.id}`);
              if (key === 'delete') setDeleting(user);
            }}
            trigger={(menu) => (
              <Button
                size="small"
                icon={<MoreOutlined />}
                aria-label={`Actions for ${user.name}`}
                {...menu}
              />
            )}
          />
        ),
    },
  ];

  // Every user matching the search, asked of the server (not only this page); an invite still queued
  // is not a user yet.
  const exportAs = async (format: ExportFormat) => {
    try {
      const { sort, order } = list.query;
      const all = await fetchTenantUsers({ toast: false }, { search: search || undefined, sort, order });
      await downloadTable(usersExportTable(all.users), 'users', format);
    } catch {
      toastError(MSG.failedLoadUsers);
    }
  };
  const nothingToExport = list.total === 0;

  return (
    <section className="page users-list-page">
      <PageTitle title="Users" />
      <div className="page-toolbar">
        <Typography.Title level={1} className="page-title">
          Users
        </Typography.Title>
        <Space wrap>
          {data && <span data-testid="total-users">{MSG.totalUsers(data.totalUsers, data.userLimit)}</span>}
          {data && full && canInvite && (
            // Why Add Users is disabled, and what to do about it.
            <Typography.Text type="secondary" id="seats-full" data-testid="seats-full">
              {MSG.seatsFull(data.userLimit)}{' '}
              {abilities.manageBilling ? (
                <Link to="/user/settings/subscription">{MSG.seatsAddOnSubscription}</Link>
              ) : (
                MSG.seatsAskOwner
              )}
            </Typography.Text>
          )}
          {canInvite && (
            <PopoverMenu
              label="Add Users"
              align="start"
              items={[
                { key: 'single', label: 'Single Invite' },
                { key: 'bulk', label: 'Bulk Invite' },
              ]}
              onSelect={(key) => {
                if (key === 'single') setInviting(true);
                if (key === 'bulk') void navigate('/user/settings/users-list/bulk-user-invite');
              }}
              trigger={(menu) => (
                <Button
                  type="primary"
                  disabled={full}
                  aria-describedby={data && full ? 'seats-full' : undefined}
                  data-testid="add-users"
                  {...menu}
                >
                  Add Users <DownOutlined />
                </Button>
              )}
            />
          )}
          <ExportMenu
            onExport={(format) => void exportAs(format)}
            disabled={nothingToExport}
            testId="export-users"
          />
        </Space>
      </div>
      <OfflineNotice savedAt={list.savedAt} />
      <ListSearch list={list} testId="users-search" />
      <ResponsiveTable<UserRow> rowKey="id" columns={columns} {...list.tableProps} dataSource={users} />
      <Suspense fallback={null}>
        {inviting && (
          <InviteUserModal
            onClose={() => setInviting(false)}
            onInvited={() => {
              setInviting(false);
              reload();
            }}
          />
        )}
        {deleting && (
          <DeleteUserModal
            user={deleting}
            onClose={() => setDeleting(null)}
            onDeleted={() => {
              setDeleting(null);
              reload();
            }}
          />
        )}
      </Suspense>
    </section>
  );
}
