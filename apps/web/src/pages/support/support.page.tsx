import { Select, Tag, Typography, type TableProps } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { SUPPORT_SORTS, type SupportRequestPage } from '@helix/shared/schemas/support';
import { SUPPORT_STATUSES, type SupportStatus } from '@helix/shared/support';
import { formatCount } from '../../ui/count-format';
import { toastError, toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { useServerList } from '../../ui/use-server-list';
import { ListSearch } from '../../ui/list-search';
import '../../ui/list-toolbar.css';
import { supportAge } from './support-age';
import { SupportScreenshot } from './support-screenshot';
import { fetchSupportPage, updateSupportStatus, type SupportRequest } from './support.api';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';

type Sort = (typeof SUPPORT_SORTS)[number];

const STATUS_LABELS: Record<SupportStatus, string> = { open: 'Open', answered: 'Answered', closed: 'Closed' };
/** The statuses shown first: the requests still waiting for an answer or a close. */
const DEFAULT_STATUSES: SupportStatus[] = ['open', 'answered'];

interface Filters {
  status: SupportStatus[];
  priority: boolean[];
}

/**
 * /support (platform admins): every tenant's Help requests with tenant, plan, priority, age and status.
 * Paged, searched (subject, sender, school), filtered (status, priority) and sorted by the server
 * (docs/lists-at-scale.md). Priority requests stay first under every sort; the default order is
 * oldest first within each tier, so the longest wait is on top. The status is changed in place. A row
 * opens to show the message.
 */
export function SupportPage() {
  const [filters, setFilters] = useState<Filters>({ status: DEFAULT_STATUSES, priority: [] });
  const [saving, setSaving] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  const list = useServerList<SupportRequest, Sort, SupportRequestPage>({
    fetchPage: async (query, signal) => {
      const answer = await fetchSupportPage(
        {
          ...query,
          ...(filters.status.length ? { status: filters.status.join(',') } : {}),
          ...(filters.priority.length === 1 ? { priority: String(filters.priority[0]) } : {}),
        },
        signal,
      );
      setNow(Date.now());
      return answer;
    },
    sorts: SUPPORT_SORTS,
    sort: 'created_at',
    order: 'asc',
    pageSize: 20,
    deps: [filters],
    texts: {
      failed: MSG.failedLoadSupport,
      empty: MSG.noSupportRequests,
      noMatch: MSG.noSupportRequestsMatch,
    },
    onError: () => toastError(MSG.failedLoadSupport),
  });

  const changeStatus = async (row: SupportRequest, status: SupportStatus) => {
    setSaving(row.id);
    try {
      await updateSupportStatus(row.id, status);
      toastSuccess(MSG.supportStatusUpdated);
      // The request may now leave the status filter: the server answers the page again.
      list.reload();
    } catch {
      // The client already toasted the server's message.
    } finally {
      setSaving(null);
    }
  };

  const onChange: TableProps<SupportRequest>['onChange'] = (pagination, tableFilters, sorter, extra) => {
    if (extra.action === 'filter') {
      setFilters({
        status: (tableFilters.status ?? []) as SupportStatus[],
        priority: ((tableFilters.priority ?? []) as string[]).map((v) => v === 'true'),
      });
      return;
    }
    list.tableProps.onChange?.(pagination, tableFilters, sorter, extra);
  };

  const columns: ResponsiveColumn<SupportRequest>[] = [
    {
      title: 'Priority',
      key: 'priority',
      filters: [
        { text: 'Priority', value: 'true' },
        { text: 'Standard', value: 'false' },
      ],
      filteredValue: filters.priority.map(String),
      render: (_, row) =>
        row.priority ? (
          <Tag color="red" data-testid="priority-tag">
            Priority
          </Tag>
        ) : (
          <Tag>Standard</Tag>
        ),
    },
    { title: 'Subject', key: 'subject', dataIndex: 'subject', role: 'title' },
    {
      title: 'Tenant',
      key: 'tenant',
      priority: 2,
      sorter: true,
      sortOrder: list.sortOrder('tenant'),
      render: (_, row) => row.tenant.name,
    },
    {
      title: 'Plan',
      key: 'plan',
      priority: 2,
      sorter: true,
      sortOrder: list.sortOrder('plan'),
      render: (_, row) => row.plan ?? '—',
    },
    {
      title: 'User',
      key: 'user',
      priority: 2,
      render: (_, row) => (
        <a href={`mailto:${row.user.email}?subject=${encodeURIComponent(`Re: ${row.subject}`)}`}>
          {row.user.name}
        </a>
      ),
    },
    {
      // Ascending: the oldest request (the longest wait) first.
      title: 'Age',
      key: 'created_at',
      sorter: true,
      sortOrder: list.sortOrder('created_at'),
      render: (_, row) => (
        <span title={new Date(row.created_at).toLocaleString()}>{supportAge(row.created_at, now)}</span>
      ),
    },
    { title: 'Target', key: 'target', dataIndex: 'target', priority: 2 },
    {
      title: 'Status',
      key: 'status',
      filters: SUPPORT_STATUSES.map((s) => ({ text: STATUS_LABELS[s], value: s })),
      filteredValue: filters.status,
      sorter: true,
      sortOrder: list.sortOrder('status'),
      render: (_, row) => (
        <Select<SupportStatus>
          value={row.status}
          size="small"
          style={{ width: 120 }}
          aria-label={`Status of request ${row.id}`}
          data-testid={`status-${row.id}`}
          loading={saving === row.id}
          disabled={saving === row.id}
          options={SUPPORT_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
          onChange={(status) => void changeStatus(row, status)}
        />
      ),
    },
  ];

  return (
    <section className="page support-page">
      <PageTitle title="Support Requests" />
      <div className="page-toolbar">
        <Typography.Title level={1} className="page-title">
          Support Requests
        </Typography.Title>
      </div>
      <div className="list-toolbar">
        <ListSearch list={list} label="Search subject, user or tenant" testId="support-search" />
        {list.data && (
          <span className="list-total" data-testid="support-total">
            {formatCount(list.total)} requests
          </span>
        )}
      </div>
      <ResponsiveTable<SupportRequest>
        rowKey="id"
        columns={columns}
        {...list.tableProps}
        onChange={onChange}
        expandable={{
          expandedRowRender: (row) => (
            <>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{row.message}</Typography.Paragraph>
              {row.has_screenshot && <SupportScreenshot id={row.id} />}
            </>
          ),
        }}
      />
    </section>
  );
}
