import { Input, Table, type TableColumnsType } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useEffect, useState } from 'react';
import { useDebounce } from 'use-debounce';
import { MSG } from '@helix/shared';
import type { UserStatsPage, UserStatsQuery, UserStatsRow } from '@helix/shared/schemas/list-query';
import { formatCount } from '../../ui/count-format';
import { listEmptyText, type ListStatus } from '../../ui/list-states';
import { fetchUserStats } from './user-stats.api';

const PAGE_SIZE = 10;
type Sort = NonNullable<UserStatsQuery['sort']>;

/**
 * The statistics page's users (docs/lists-at-scale.md): the top users by views, searched, sorted and
 * paged by the server, so a platform with 100,000 users draws one page of rows, not a card per user.
 */
export function UserStatsTable({ showTenant }: { showTenant: boolean }) {
  const [text, setText] = useState('');
  const [search] = useDebounce(text.trim(), 300);
  const [query, setQuery] = useState<{ page: number; sort: Sort; order: 'asc' | 'desc' }>({
    page: 1,
    sort: 'views',
    order: 'desc',
  });
  const [status, setStatus] = useState<ListStatus>('loading');
  const [data, setData] = useState<UserStatsPage | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setStatus('loading');
    fetchUserStats({ ...query, pageSize: PAGE_SIZE, search: search || undefined }, controller.signal)
      .then((page) => {
        setData(page);
        setStatus('ready');
      })
      .catch(() => {
        if (!controller.signal.aborted) setStatus('failed');
      });
    return () => controller.abort();
  }, [query, search]);

  const sorted = (key: Sort) => (query.sort === key ? (query.order === 'asc' ? 'ascend' : 'descend') : null);
  const columns: TableColumnsType<UserStatsRow> = [
    { title: 'Name', dataIndex: 'name', key: 'name', sorter: true, sortOrder: sorted('name') },
    { title: 'E-mail', dataIndex: 'email', key: 'email', sorter: true, sortOrder: sorted('email') },
    ...(showTenant ? [{ title: 'Tenant', dataIndex: 'tenantName', key: 'tenantName' }] : []),
    {
      title: 'Views',
      dataIndex: 'views',
      key: 'views',
      align: 'right',
      sorter: true,
      sortOrder: sorted('views'),
      render: (views: number) => formatCount(views),
    },
  ];

  return (
    <div className="stats-users" data-testid="stats-users">
      <div className="stats-users-toolbar">
        <Input.Search
          allowClear
          placeholder="Search name or e-mail"
          aria-label="Search users"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setQuery((q) => ({ ...q, page: 1 }));
          }}
        />
        {data && (
          <span className="stats-users-total">
            {formatCount(data.total)} users, {formatCount(data.totalViews)} views
          </span>
        )}
      </div>
      <Table<UserStatsRow>
        scroll={{ x: 'max-content' }}
        rowKey="id"
        size="small"
        columns={columns}
        loading={status === 'loading' && data !== null}
        dataSource={data?.rows ?? []}
        locale={{
          emptyText: listEmptyText(
            data === null ? status : status === 'failed' ? 'failed' : 'ready',
            MSG.failedLoadStatsUsers,
            search ? MSG.statsUsersNoMatch : MSG.statsUsersEmpty,
          ),
        }}
        pagination={{
          current: query.page,
          pageSize: PAGE_SIZE,
          total: data?.total ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        onChange={(pagination, _filters, sorter) => {
          const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<UserStatsRow> | undefined;
          const key = (s?.order ? s.columnKey : 'views') as Sort;
          setQuery({
            page:
              key === query.sort && (s?.order === 'ascend' ? 'asc' : 'desc') === query.order
                ? (pagination.current ?? 1)
                : 1,
            sort: key,
            order: s?.order === 'ascend' ? 'asc' : 'desc',
          });
        }}
      />
    </div>
  );
}
