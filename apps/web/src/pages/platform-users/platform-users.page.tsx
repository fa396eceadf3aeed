import { DeleteOutlined, EyeOutlined, MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, Table, Typography, type TableColumnsType } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { columnSearch } from '../../ui/column-search';
import { toastError } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { fetchPlatformUsers, type PlatformUser } from './platform-users.api';
import { listEmptyText } from '../../ui/list-states';

type Load = { status: 'loading' } | { status: 'ready'; users: PlatformUser[] } | { status: 'failed' };
type SearchKey = 'name' | 'paymentPlan' | 'companyName';

const text = (value: string | null) => value ?? '';

/**
 * /users (platform admins): Name, Payment Plan and Company Name, each sortable and searchable; a row
 * menu with View (the user detail) and a disabled Delete; Add User.
 */
export function PlatformUsersPage() {
  const navigate = useNavigate();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [search, setSearch] = useState<Record<SearchKey, string>>({
    name: '',
    paymentPlan: '',
    companyName: '',
  });

  useEffect(() => {
    const controller = new AbortController();
    fetchPlatformUsers({ signal: controller.signal, toast: false })
      .then((users) => setLoad({ status: 'ready', users }))
      .catch(() => {
        if (controller.signal.aborted) return;
        toastError(MSG.failedLoadUsers);
        setLoad({ status: 'failed' });
      });
    return () => controller.abort();
  }, []);

  const searchable = (key: SearchKey, label: string) => ({
    title: label,
    key,
    sorter: (a: PlatformUser, b: PlatformUser) => text(a[key]).localeCompare(text(b[key])),
    ...columnSearch<PlatformUser>({
      key,
      label,
      value: (u) => u[key],
      search: search[key],
      onSearch: (value) => setSearch((s) => ({ ...s, [key]: value })),
    }),
  });

  const columns: TableColumnsType<PlatformUser> = [
    searchable('name', 'Name'),
    searchable('paymentPlan', 'Payment Plan'),
    searchable('companyName', 'Company Name'),
    {
      title: 'Actions',
      key: 'actions',
      width: 90,
      render: (_, user) => (
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'view', label: 'View', icon: <EyeOutlined /> },
              // The spec's delete is disabled on this table (users are deleted by their tenant's owner).
              { key: 'delete', label: 'Delete', icon: <DeleteOutlined />, danger: true, disabled: true },
            ],
            onClick: ({ key }) => {
              if (key === 'view') void navigate(`/users/user-detail/${user.id}`);
            },
          }}
        >
          <Button size="small" icon={<MoreOutlined />} aria-label={`Actions for ${user.name}`} />
        </Dropdown>
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
      <Table<PlatformUser>
        // On a phone or tablet the table scrolls inside its card; the page keeps the screen's width.
        scroll={{ x: 'max-content' }}
        rowKey="id"
        columns={columns}
        dataSource={load.status === 'ready' ? load.users : []}
        locale={{ emptyText: listEmptyText(load.status, MSG.failedLoadUsers, MSG.noUsers) }}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
      />
    </section>
  );
}
