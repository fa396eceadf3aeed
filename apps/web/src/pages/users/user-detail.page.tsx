import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { toastError } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { QueryEmpty, QueryFailed, QueryState } from '../../ui/query-state';
import { DeleteUserModal } from './delete-user.modal';
import { userDetailQuery } from './users.queries';
import { ResponsiveTable } from '../../ui/responsive-table';

/**
 * User Detail, for a tenant owner (/user/settings/users-list/user-detail/{id}) and for a platform admin
 * (/users/user-detail/{id}): the user, their roles, the models they opened with view counts, and
 * Delete, disabled when the server says this caller may not delete them (always for an admin).
 */
export function UserDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const back = pathname.startsWith('/users/') ? '/users' : '/user/settings/users-list';
  const [deleting, setDeleting] = useState(false);

  // The user, as a query (src/api/query-client.ts): loading, failure and the toast from one place.
  const userId = Number(id);
  const valid = Number.isInteger(userId) && userId >= 1;
  const detail = useQuery({ ...userDetailQuery(userId), enabled: valid });
  useEffect(() => {
    if (detail.errorUpdatedAt > 0) toastError(MSG.failedLoadUser);
  }, [detail.errorUpdatedAt]);
  const user = valid ? (detail.data ?? null) : null;

  return (
    <section className="page user-detail-page">
      <PageTitle title="User Detail" />
      <div className="page-toolbar">
        <Typography.Title level={1} className="page-title">
          User Detail
        </Typography.Title>
        <Space>
          <Link to={back}>
            <ArrowLeftOutlined /> Back
          </Link>
          <Button
            danger
            disabled={!user?.abilities.delete}
            onClick={() => setDeleting(true)}
            data-testid="delete-user"
          >
            Delete User
          </Button>
        </Space>
      </div>
      {valid ? (
        <QueryState query={detail} failed={MSG.failedLoadUser} />
      ) : (
        <QueryFailed message={MSG.failedLoadUser} />
      )}
      {user && (
        <>
          <Descriptions column={1} bordered size="small" data-testid="user-detail">
            <Descriptions.Item label="Name">{user.name}</Descriptions.Item>
            <Descriptions.Item label="Email">{user.email}</Descriptions.Item>
            <Descriptions.Item label="Roles">
              {user.roles.length ? user.roles.map((r) => <Tag key={r.id}>{r.name}</Tag>) : '—'}
            </Descriptions.Item>
            <Descriptions.Item label="Company">{user.tenant.name}</Descriptions.Item>
            <Descriptions.Item label="Payment Plan">{user.paymentPlan ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="Password set">
              {user.isPassword ? 'Yes' : 'Not yet (invited)'}
            </Descriptions.Item>
            <Descriptions.Item label="Total model views">{user.totalModelViews}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={2} style={{ marginTop: 24 }}>
            Models
          </Typography.Title>
          <ResponsiveTable
            rowKey="modelId"
            size="small"
            dataSource={user.models}
            locale={{ emptyText: <QueryEmpty message={MSG.noUserModelViews} /> }}
            pagination={{ pageSize: 20, hideOnSinglePage: true }}
            columns={[
              { title: 'Model', dataIndex: 'name', key: 'name', role: 'title' },
              { title: 'Views', dataIndex: 'viewCount', key: 'viewCount', width: 120 },
            ]}
          />
        </>
      )}
      {deleting && user && (
        <DeleteUserModal
          user={user}
          onClose={() => setDeleting(false)}
          onDeleted={() => void navigate(back, { replace: true })}
        />
      )}
    </section>
  );
}
