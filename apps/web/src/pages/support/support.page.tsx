import { Select, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { MSG } from '@helix/shared';
import { SUPPORT_STATUSES, type SupportStatus } from '@helix/shared/support';
import { columnSearch } from '../../ui/column-search';
import { toastError, toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { priorityFirst, supportAge } from './support-age';
import { SupportScreenshot } from './support-screenshot';
import { fetchSupportRequests, updateSupportStatus, type SupportRequest } from './support.api';
import { listEmptyText } from '../../ui/list-states';

type Load = { status: 'loading' } | { status: 'ready'; list: SupportRequest[] } | { status: 'failed' };

const STATUS_LABELS: Record<SupportStatus, string> = { open: 'Open', answered: 'Answered', closed: 'Closed' };
const text = (a: string | null, b: string | null) => (a ?? '').localeCompare(b ?? '');

/**
 * /support (platform admins): every tenant's Help requests with tenant, plan, priority, age and status.
 * Priority requests stay first under every sort; the default order is the server's (oldest first
 * within each tier, so the longest wait is on top). Filters by priority and status, searches by tenant
 * and subject; the status is changed in place. A row opens to show the message.
 */
export function SupportPage() {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [search, setSearch] = useState({ tenant: '', subject: '' });
  const [saving, setSaving] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const controller = new AbortController();
    fetchSupportRequests({ signal: controller.signal, toast: false })
      .then((list) => {
        setNow(Date.now());
        setLoad({ status: 'ready', list });
      })
      .catch(() => {
        if (controller.signal.aborted) return;
        toastError(MSG.failedLoadSupport);
        setLoad({ status: 'failed' });
      });
    return () => controller.abort();
  }, []);

  const list = useMemo(() => (load.status === 'ready' ? load.list : []), [load]);

  const changeStatus = async (row: SupportRequest, status: SupportStatus) => {
    setSaving(row.id);
    try {
      const updated = await updateSupportStatus(row.id, status);
      setLoad((l) =>
        l.status === 'ready' ? { ...l, list: l.list.map((r) => (r.id === updated.id ? updated : r)) } : l,
      );
      toastSuccess(MSG.supportStatusUpdated);
    } catch {
      // The client already toasted the server's message.
    } finally {
      setSaving(null);
    }
  };

  const columns: TableColumnsType<SupportRequest> = [
    {
      title: 'Priority',
      key: 'priority',
      filters: [
        { text: 'Priority', value: 'true' },
        { text: 'Standard', value: 'false' },
      ],
      onFilter: (value, row) => String(row.priority) === value,
      render: (_, row) =>
        row.priority ? (
          <Tag color="red" data-testid="priority-tag">
            Priority
          </Tag>
        ) : (
          <Tag>Standard</Tag>
        ),
    },
    {
      title: 'Subject',
      key: 'subject',
      sorter: priorityFirst((a, b) => a.subject.localeCompare(b.subject)),
      ...columnSearch<SupportRequest>({
        key: 'subject',
        label: 'Subject',
        value: (r) => r.subject,
        search: search.subject,
        onSearch: (subject) => setSearch((s) => ({ ...s, subject })),
      }),
    },
    {
      title: 'Tenant',
      key: 'tenant',
      sorter: priorityFirst((a, b) => a.tenant.name.localeCompare(b.tenant.name)),
      ...columnSearch<SupportRequest>({
        key: 'tenant',
        label: 'Tenant',
        value: (r) => r.tenant.name,
        search: search.tenant,
        onSearch: (tenant) => setSearch((s) => ({ ...s, tenant })),
      }),
    },
    {
      title: 'Plan',
      key: 'plan',
      sorter: priorityFirst((a, b) => text(a.plan, b.plan)),
      render: (_, row) => row.plan ?? '—',
    },
    {
      title: 'User',
      key: 'user',
      render: (_, row) => (
        <a href={`mailto:${row.user.email}?subject=${encodeURIComponent(`Re: ${row.subject}`)}`}>
          {row.user.name}
        </a>
      ),
    },
    {
      title: 'Age',
      key: 'age',
      sorter: priorityFirst((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at)),
      render: (_, row) => (
        <span title={new Date(row.created_at).toLocaleString()}>{supportAge(row.created_at, now)}</span>
      ),
    },
    { title: 'Target', key: 'target', dataIndex: 'target' },
    {
      title: 'Status',
      key: 'status',
      filters: SUPPORT_STATUSES.map((s) => ({ text: STATUS_LABELS[s], value: s })),
      defaultFilteredValue: ['open', 'answered'],
      onFilter: (value, row) => row.status === value,
      sorter: priorityFirst(
        (a, b) => SUPPORT_STATUSES.indexOf(a.status) - SUPPORT_STATUSES.indexOf(b.status),
      ),
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
      <Table<SupportRequest>
        // On a phone or tablet the table scrolls inside its card; the page keeps the screen's width.
        scroll={{ x: 'max-content' }}
        rowKey="id"
        columns={columns}
        dataSource={list}
        expandable={{
          expandedRowRender: (row) => (
            <>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{row.message}</Typography.Paragraph>
              {row.has_screenshot && <SupportScreenshot id={row.id} />}
            </>
          ),
        }}
        locale={{ emptyText: listEmptyText(load.status, MSG.failedLoadSupport, MSG.noSupportRequests) }}
        pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
      />
    </section>
  );
}
