import { DeleteOutlined, EyeOutlined, MoreOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { useNavigate } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { PLATFORM_USERS_SORTS, type PlatformUserPage } from '@helix/shared/schemas/platform-user';
import { HighlightText } from '../../ui/highlight-text';
import { ListSearch } from '../../ui/list-search';
import { toastError } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { PopoverMenu } from '../../ui/popover-menu';
import { useServerList } from '../../ui/use-server-list';
import { fetchPlatformUsersPage, type PlatformUser } from './platform-users.api';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';

type Sort = (typeof PLATFORM_USERS_SORTS)[number];

/**
 * /users (platform admins): one page of every school's users at a time, newest first, searched (name
 * or e-mail), sorted (Name, Company Name) and paged by the server (docs/lists-at-scale.md); Name,
 * Payment Plan and Company Name; a row menu with View (the user detail) and a disabled Delete; Add User.
 */
export function PlatformUsersPage() {
  const navigate = useNavigate();
  const list = useServerList<PlatformUser, Sort, PlatformUserPage>({
    fetchPage: fetchPlatformUsersPage,
    sorts: PLATFORM_USERS_SORTS,
    sort: 'createdAt',
    order: 'desc',
    texts: { failed: MSG.failedLoadUsers, empty: MSG.noUsers, noMatch: MSG.usersNoMatch },
    onError: () => toastError(MSG.failedLoadUsers),
  });
  const search = list.query.search ?? '';

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
      title: 'Payment Plan',
      key: 'paymentPlan',
      render: (_: unknown, u: PlatformUser) => u.paymentPlan ?? '',
    },
    {
      title: 'Company Name',
      key: 'companyName',
      sorter: true,
      sortOrder: list.sortOrder('companyName'),
      render: (_: unknown, u: PlatformUser) => u.companyName,
    },
    {
      title: 'Actions',
      key: 'actions',
      role: 'actions',
      width: 90,
      render: (_, user) => (
        <PopoverMenu
          label={`Actions for ${user.name}`}
          items={[
            { key: 'view', label: 'View', icon: <EyeOutlined /> },
            // The spec's delete is disabled on this table (users are deleted by their tenant's owner).
            { key: 'delete', label: 'Delete', icon: <DeleteOutlined />, danger: true, disabled: true },
          ]}
          onSelect={(key) => {
            if (key === 'view') void navigate(`/users/user-detail/${user.id}`);
          }}
          trigger={(menu) => (
            <Button size="small" icon={<MoreOutlined />} aria-label={`Actions for ${user.name}`} {...menu} />
          )}
        />
      ),
    },
  ];

  return (
    <section className="page platform-users-page">
      <PageTitle title="Users" />
      <div className="page-toolbar">
        <Typography.Title level={1} className="page-title">
          Users
        </Typography.Title>
        <Button type="primary" onClick={() => void navigate('/users/add-user')} data-testid="add-user">
          Add User
        </Button>
      </div>
      <ListSearch list={list} testId="users-search" />
      <ResponsiveTable<PlatformUser> rowKey="id" columns={columns} {...list.tableProps} />
    </section>
  );
}
