import { Input } from 'antd';
import { MSG } from '@helix/shared';
import { USER_STATS_SORTS, type UserStatsPage, type UserStatsRow } from '@helix/shared/schemas/list-query';
import { formatCount } from '../../ui/count-format';
import { useServerList } from '../../ui/use-server-list';
import { fetchUserStats } from './user-stats.api';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';

/**
 * The statistics page's users (docs/lists-at-scale.md): the top users by views, searched, sorted and
 * paged by the server, so a platform with 100,000 users draws one page of rows, not a card per user.
 */
export function UserStatsTable({ showTenant }: { showTenant: boolean }) {
  const list = useServerList<UserStatsRow, (typeof USER_STATS_SORTS)[number], UserStatsPage>({
    fetchPage: fetchUserStats,
    sorts: USER_STATS_SORTS,
    sort: 'views',
    order: 'desc',
    pageSize: 10,
    texts: { failed: MSG.failedLoadStatsUsers, empty: MSG.statsUsersEmpty, noMatch: MSG.statsUsersNoMatch },
  });
  const { data } = list;

  const columns: ResponsiveColumn<UserStatsRow>[] = [
    {
      title: 'Name',
      dataIndex: 'name',
      key: 'name',
      role: 'title',
      sorter: true,
      sortOrder: list.sortOrder('name'),
    },
    { title: 'E-mail', dataIndex: 'email', key: 'email', sorter: true, sortOrder: list.sortOrder('email') },
    ...(showTenant ? [{ title: 'Tenant', dataIndex: 'tenantName', key: 'tenantName' }] : []),
    {
      title: 'Views',
      dataIndex: 'views',
      key: 'views',
      align: 'right',
      sorter: true,
      sortOrder: list.sortOrder('views'),
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
          value={list.searchText}
          onChange={(e) => list.setSearchText(e.target.value)}
        />
        {data && (
          <span className="stats-users-total">
            {formatCount(data.total)} users, {formatCount(data.totalViews)} views
          </span>
        )}
      </div>
      <ResponsiveTable<UserStatsRow> rowKey="id" size="small" columns={columns} {...list.tableProps} />
    </div>
  );
}
