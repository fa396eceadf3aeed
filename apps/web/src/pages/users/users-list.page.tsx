import { DeleteOutlined, DownOutlined, EyeOutlined, MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { handover, HANDOVER } from '@helix/shared/handover';
import { TenantUserList, type TenantUserView } from '@helix/shared/schemas/tenant-user';
import { FIRST_ANSWER } from '../../prerender/first-answers';
import { OfflineNotice } from '../../offline/offline-notice';
import { PendingTag } from '../../offline/outbox-panel';
import { useReloadOnOutboxChange } from '../../offline/pending-rows';
import { useSnapshotLoad } from '../../offline/use-snapshot-load';
import { useSessionUser } from '../../session/use-session';
import { columnSearch } from '../../ui/column-search';
import { toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { DeleteUserModal } from './delete-user.modal';
import { downloadTable } from '../../ui/export-table';
import { InviteUserModal } from './invite-user.modal';
import { withPendingInvites, type UserRow } from './pending-invites';
import { fetchTenantUsers, resendInvite } from './users.api';
import { usersExportTable } from './users-export';
import { listEmptyText } from '../../ui/list-states';

const loadTenantUsers = (signal?: AbortSignal): Promise<TenantUserList> =>
  fetchTenantUsers({ signal, toast: false });
type SearchKey = 'name' | 'email';
/** A drawn users list came with GET /user/all's answer (src/prerender/first-answers.ts). */
const FIRST = { answer: FIRST_ANSWER.tenantUsers, parse: (a: unknown) => TenantUserList.parse(a) };

/**
 * /user/settings/users-list (owner with User.listing.view): name and e-mail with column search and
 * highlighting, name sorting, a row menu (View, Delete), Resend Email for users without a password,
 * 'Total Users: n/limit', Add Users (Single Invite, Bulk Invite) and Export (name, e-mail, roles,
 * status, created, last login). Single invites queued
 * offline are rows marked "Pending sync" (without actions) until the server has them.
 */
export function UsersListPage() {
  const navigate = useNavigate();
  const me = useSessionUser();
  const can = (p: string) => me?.permissions.includes(p as never) ?? false;
  const { load, reload } = useSnapshotLoad('tenant-users', loadTenantUsers, MSG.failedLoadUsers, FIRST);
  const [search, setSearch] = useState<Record<SearchKey, string>>({ name: '', email: '' });
  const [inviting, setInviting] = useState(false);
  const [deleting, setDeleting] = useState<TenantUserView | null>(null);
  const [resending, setResending] = useState<number | null>(null);

  const outbox = useReloadOnOutboxChange(reload);
  const list = load.status === 'ready' ? load.data : null;
  const users = useMemo(() => withPendingInvites(list?.users ?? [], outbox), [list, outbox]);
  const full = list ? list.totalUsers >= list.userLimit : true;

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

  const searchable = (key: SearchKey, label: string) =>
    columnSearch<UserRow>({
      key,
      label,
      value: (u) => u[key],
      search: search[key],
      onSearch: (value) => setSearch((s) => ({ ...s, [key]: value })),
    });

  const nameSearch = searchable('name', 'Name');

  const columns: TableColumnsType<UserRow> = [
    {
      title: 'Name',
      key: 'name',
      sorter: (a, b) => a.name.localeCompare(b.name),
      ...nameSearch,
      render: (value: unknown, user: UserRow, index: number) => (
        <Space>
          {nameSearch.render ? (nameSearch.render(value, user, index) as React.ReactNode) : user.name}
          <PendingTag pending={Boolean(user.pending)} />
        </Space>
      ),
    },
    {
      title: 'Email',
      key: 'email',
      ...searchable('email', 'Email'),
    },
    {
      title: '',
      key: 'resend',
      width: 130,
      render: (_, user) =>
        !user.isPassword && !user.pending && can('User.invite') ? (
          <Button
            type="link"
            size="small"
            loading={resending === user.id}
            onClick={() => void resend(user)}
            data-testid={`resend-${user.id}`}
            {...handover(HANDOVER.userResend)}
          >
            Resend Email
          </Button>
        ) : null,
    },
    {
      title: 'Actions',
      key: 'actions',
      width: 90,
      render: (_, user) =>
        user.pending ? null : (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'view', label: 'View', icon: <EyeOutlined />, disabled: !can('User.detail.view') },
                {
                  key: 'delete',
                  label: 'Delete',
                  icon: <DeleteOutlined />,
                  danger: true,
                  disabled: !can('User.delete') || user.isOwner || user.id === me?.id,
                },
              ],
              onClick: ({ key }) => {
                if (key === 'view') void navigate(`/user/settings/users-list/user-detail/${user.id}`);
                if (key === 'delete') setDeleting(user);
              },
            }}
          >
            <Button
              size="small"
              icon={<MoreOutlined />}
              aria-label={`Actions for ${user.name}`}
              {...handover(HANDOVER.userActions)}
            />
          </Dropdown>
        ),
    },
  ];

  // The server's rows: an invite still queued is not a user yet.
  const exportAs = (format: 'csv' | 'xlsx') =>
    void downloadTable(usersExportTable(list?.users ?? []), 'users', format);

  return (
    <section className="page users-list-page">
      <PageTitle title="Users" />
      <div className="page-toolbar">
        <Typography.Title level={1} className="page-title">
          Users
        </Typography.Title>
        <Space wrap>
          {list && <span data-testid="total-users">{MSG.totalUsers(list.totalUsers, list.userLimit)}</span>}
          {can('User.invite') && (
            <Dropdown
              disabled={full}
              trigger={['click']}
              menu={{
                items: [
                  { key: 'single', label: 'Single Invite' },
                  { key: 'bulk', label: 'Bulk Invite' },
                ],
                onClick: ({ key }) => {
                  if (key === 'single') setInviting(true);
                  if (key === 'bulk') void navigate('/user/settings/users-list/bulk-user-invite');
                },
              }}
            >
              <Button type="primary" disabled={full} data-testid="add-users" {...handover(HANDOVER.usersAdd)}>
                Add Users <DownOutlined />
              </Button>
            </Dropdown>
          )}
          <Dropdown
            disabled={users.length === 0}
            trigger={['click']}
            menu={{
              items: [
                { key: 'csv', label: 'CSV' },
                { key: 'xlsx', label: 'XLSX' },
              ],
              onClick: ({ key }) => exportAs(key as 'csv' | 'xlsx'),
            }}
          >
            <Button
              disabled={users.length === 0}
              data-testid="export-users"
              {...handover(HANDOVER.usersExport)}
            >
              Export <DownOutlined />
            </Button>
          </Dropdown>
        </Space>
      </div>
      <OfflineNotice savedAt={load.status === 'ready' ? load.savedAt : null} />
      <Table<UserRow>
        // On a phone or tablet the table scrolls inside its card; the page keeps the screen's width.
        scroll={{ x: 'max-content' }}
        rowKey="id"
        columns={columns}
        dataSource={users}
        locale={{ emptyText: listEmptyText(load.status, MSG.failedLoadUsers, MSG.noTenantUsers) }}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
      />
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
    </section>
  );
}
