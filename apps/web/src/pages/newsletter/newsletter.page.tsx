import { DownloadOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { NEWSLETTER_SORTS, type SubscriberPage } from '@helix/shared/schemas/newsletter';
import { logError } from '../../logging/error-logger';
import { formatCount } from '../../ui/count-format';
import { toastError } from '../../ui/notify';
import { OfflineNotice } from '../../offline/offline-notice';
import { PageTitle } from '../../ui/page-title';
import { ExportMenu, type ExportFormat } from '../../ui/export-menu';
import { useServerList } from '../../ui/use-server-list';
import { ListSearch } from '../../ui/list-search';
import '../../ui/list-toolbar.css';
import { downloadCsv, downloadXlsx, formatCreatedAt } from './newsletter-export';
import { fetchSubscriberPage, fetchSubscribers, type Subscriber } from './newsletter.api';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';

type Sort = (typeof NEWSLETTER_SORTS)[number];

/**
 * /news-letter: 'Newsletter Subscribers', Email and Created At (YYYY-MM-DD h:mm:ss). Paged, searched
 * (in the address) and sorted by the server (docs/lists-at-scale.md); Export writes every subscriber
 * that matches the search, in the table's order, to CSV or XLSX (not only the page shown). The last
 * answer of each page asked is kept for offline use.
 */
export function NewsletterPage() {
  const list = useServerList<Subscriber, Sort, SubscriberPage>({
    fetchPage: fetchSubscriberPage,
    sorts: NEWSLETTER_SORTS,
    sort: 'created_at',
    order: 'desc',
    pageSize: 50,
    snapshot: 'newsletter',
    texts: { failed: MSG.failedLoadSubscribers, empty: MSG.noSubscribers, noMatch: MSG.noSubscribersMatch },
    onError: () => toastError(MSG.failedLoadSubscribers),
  });
  const [exporting, setExporting] = useState(false);

  const columns: ResponsiveColumn<Subscriber>[] = [
    {
      title: 'Email',
      key: 'email',
      role: 'title',
      dataIndex: 'email',
      sorter: true,
      sortOrder: list.sortOrder('email'),
    },
    {
      title: 'Created At',
      key: 'created_at',
      sorter: true,
      sortOrder: list.sortOrder('created_at'),
      render: (_, s) => formatCreatedAt(s.created_at),
    },
  ];

  const exportAs = async (kind: ExportFormat) => {
    setExporting(true);
    try {
      const { search, sort, order } = list.query;
      const all = await fetchSubscribers({ search, sort, order }, { toast: false });
      await (kind === 'csv' ? downloadCsv(all) : downloadXlsx(all));
    } catch (error) {
      logError('Newsletter: export failed', error);
      toastError(MSG.defaultError);
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="page newsletter-page">
      <PageTitle title="Newsletter Subscribers" />
      <div className="page-toolbar">
        <Typography.Title level={1} className="page-title">
          Newsletter Subscribers
        </Typography.Title>
        <ExportMenu
          onExport={(format) => void exportAs(format)}
          disabled={list.total === 0 || exporting}
          loading={exporting}
          icon={<DownloadOutlined />}
          testId="export"
        />
      </div>
      <div className="list-toolbar">
        <ListSearch list={list} label="Search e-mail" testId="subscribers-search" />
        {list.data && (
          <span className="list-total" data-testid="subscribers-total">
            {formatCount(list.total)} subscribers
          </span>
        )}
      </div>
      <OfflineNotice savedAt={list.savedAt} />
      <ResponsiveTable<Subscriber> rowKey="id" columns={columns} {...list.tableProps} />
    </section>
  );
}
