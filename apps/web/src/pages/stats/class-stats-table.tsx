import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { MSG } from '@helix/shared';
import type { LtiClassStatsRow } from '@helix/shared/schemas/lti';
import { formatCount } from '../../ui/count-format';
import { classStatsQuery } from './stats.queries';
import { tableStateText } from '../../ui/query-state';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';

/**
 * Views per class (docs/lti.md): each course that opened the school's models from a learning platform,
 * with its views (every day's, counted once per pupil per model within the view window) and the models
 * it opened, most views first.
 */
export function ClassStatsTable() {
  const query = useQuery(classStatsQuery());
  const stats = query.data;

  const columns: ResponsiveColumn<LtiClassStatsRow>[] = [
    {
      title: 'Class',
      key: 'title',
      role: 'title',
      render: (_, row) => (row.label && row.label !== row.title ? `${row.title} (${row.label})` : row.title),
    },
    { title: 'Platform', dataIndex: 'platformName', key: 'platformName' },
    {
      title: 'Models opened',
      dataIndex: 'models',
      key: 'models',
      align: 'right',
      render: (n: number) => formatCount(n),
    },
    {
      title: 'Views',
      dataIndex: 'views',
      key: 'views',
      align: 'right',
      render: (n: number) => formatCount(n),
    },
    {
      title: 'Last launch',
      dataIndex: 'lastLaunchAt',
      key: 'lastLaunchAt',
      render: (iso: string) => dayjs(iso).format('YYYY-MM-DD HH:mm'),
    },
  ];
  return (
    <div data-testid="stats-classes">
      {stats && stats.rows.length > 0 && (
        <p className="stats-users-total">{formatCount(stats.totalViews)} views from learning platforms</p>
      )}
      <ResponsiveTable<LtiClassStatsRow>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={stats?.rows ?? []}
        locale={{
          emptyText: tableStateText(query.isError ? 'failed' : query.isPending ? 'loading' : 'ready', {
            failed: MSG.failedLoadStatsClasses,
            empty: MSG.statsClassesEmpty,
            onRetry: () => void query.refetch(),
          }),
        }}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
      />
    </div>
  );
}
