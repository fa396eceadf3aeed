import { Alert } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { MSG } from '@helix/shared';
import type { LtiClassStats, LtiClassStatsRow } from '@helix/shared/schemas/lti';
import { ApiError } from '../../api/api-error';
import { logError } from '../../logging/error-logger';
import { formatCount } from '../../ui/count-format';
import { fetchClassStats } from '../lti/lti.api';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';

type Load = { status: 'loading' } | { status: 'ready'; stats: LtiClassStats } | { status: 'failed' };

/**
 * Views per class (docs/lti.md): each course that opened the school's models from a learning platform,
 * with its views (every day's, counted once per pupil per model within the view window) and the models
 * it opened, most views first.
 */
export function ClassStatsTable() {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    fetchClassStats(controller.signal)
      .then((stats) => setLoad({ status: 'ready', stats }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        if (!(error instanceof ApiError && error.statusCode === 401))
          logError('Statistics: /stats/classes failed', error);
        setLoad({ status: 'failed' });
      });
    return () => controller.abort();
  }, []);

  if (load.status === 'failed') return <Alert type="error" showIcon message={MSG.failedLoadStatsClasses} />;
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
      {load.status === 'ready' && load.stats.rows.length > 0 && (
        <p className="stats-users-total">
          {formatCount(load.stats.totalViews)} views from learning platforms
        </p>
      )}
      <ResponsiveTable<LtiClassStatsRow>
        rowKey="id"
        size="small"
        loading={load.status === 'loading'}
        columns={columns}
        dataSource={load.status === 'ready' ? load.stats.rows : []}
        locale={{ emptyText: MSG.statsClassesEmpty }}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
      />
    </div>
  );
}
