import { DownloadOutlined } from '@ant-design/icons';
import { Button, Dropdown, Table, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { MSG } from '@helix/shared';
import { logError } from '../../logging/error-logger';
import { columnSearch, includesText } from '../../ui/column-search';
import { toastError } from '../../ui/notify';
import { OfflineNotice } from '../../offline/offline-notice';
import { useSnapshotLoad } from '../../offline/use-snapshot-load';
import { PageTitle } from '../../ui/page-title';
import { downloadCsv, downloadXlsx, formatCreatedAt } from './newsletter-export';
import { fetchSubscribers, type Subscriber } from './newsletter.api';
import { listEmptyText } from '../../ui/list-states';

const loadSubscribers = (signal?: AbortSignal) => fetchSubscribers({ signal, toast: false });

/**
 * /news-letter: 'Newsletter Subscribers', Email and Created At (YYYY-MM-DD h:mm:ss), sortable and
 * searchable; Export writes the rows the table shows (its searches applied) to CSV or XLSX.
 */
export function NewsletterPage() {
  const { load } = useSnapshotLoad('newsletter', loadSubscribers, MSG.failedLoadSubscribers);
  const [search, setSearch] = useState({ email: '', createdAt: '' });

  const list = useMemo(() => (load.status === 'ready' ? load.data : []), [load]);
  const shown = useMemo(
    () =>
      list.filter(
        (s) =>
          includesText(s.email, search.email) &&
          includesText(formatCreatedAt(s.created_at), search.createdAt),
      ),
    [list, search],
  );

  const columns: TableColumnsType<Subscriber> = [
    {
      title: 'Email',
      key: 'email',
      sorter: (a, b) => a.email.localeCompare(b.email),
      ...columnSearch<Subscriber>({
        key: 'email',
        label: 'Email',
        value: (s) => s.email,
        search: search.email,
        onSearch: (email) => setSearch((s) => ({ ...s, email })),
      }),
    },
    {
      title: 'Created At',
      key: 'createdAt',
      defaultSortOrder: 'descend',
      sorter: (a, b) => Date.parse(a.created_at) - Date.parse(b.created_at),
      ...columnSearch<Subscriber>({
        key: 'createdAt',
        label: 'Created At',
        value: (s) => formatCreatedAt(s.created_at),
        search: search.createdAt,
        onSearch: (createdAt) => setSearch((s) => ({ ...s, createdAt })),
      }),
    },
  ];

  const exportAs = (kind: string) => {
    (kind === 'csv' ? downloadCsv(shown) : downloadXlsx(shown)).catch((error: unknown) => {
      logError('Newsletter: export failed', error);
      toastError(MSG.defaultError);
    });
  };

  return (
    <section className="page newsletter-page">
      <PageTitle title="Newsletter Subscribers" />
      <div className="page-toolbar">
        <Typography.Title level={1} className="page-title">
          Newsletter Subscribers
        </Typography.Title>
        <Dropdown
          disabled={shown.length === 0}
          trigger={['click']}
          menu={{
            items: [
              { key: 'csv', label: 'CSV' },
              { key: 'xlsx', label: 'XLSX' },
            ],
            onClick: ({ key }) => exportAs(key),
          }}
        >
          <Button icon={<DownloadOutlined />} data-testid="export">
            Export
          </Button>
        </Dropdown>
      </div>
      <OfflineNotice savedAt={load.status === 'ready' ? load.savedAt : null} />
      <Table<Subscriber>
        rowKey="id"
        columns={columns}
        dataSource={list}
        locale={{ emptyText: listEmptyText(load.status, MSG.failedLoadSubscribers, MSG.noSubscribers) }}
        pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
      />
    </section>
  );
}
