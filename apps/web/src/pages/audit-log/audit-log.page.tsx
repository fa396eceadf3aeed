import {
  Button,
  Checkbox,
  DatePicker,
  Input,
  Select,
  Tag,
  Typography,
  type TablePaginationConfig,
} from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import type { Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { MSG } from '@helix/shared';
import { AUDIT_ACTIONS, type AuditEventView, type AuditListQuery } from '@helix/shared/schemas/audit';
import { abilitiesOf } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { QueryFailed, tableStateText } from '../../ui/query-state';
import { downloadFile } from '../../ui/download-file';
import { toastError } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import '../../ui/admin-table.css';
import { fetchAuditExport } from './audit.api';
import { auditPageQuery, auditTenantsQuery } from './audit.queries';
import './audit-log.css';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';

const PAGE_SIZE = 20;

interface Filters {
  action?: string;
  actor?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
  offline: boolean;
  tenant?: number;
  sort: 'asc' | 'desc';
}

const time = (iso: string) => new Date(iso).toLocaleString();

/** The query of the filters as the API takes it (dates as ISO times, the whole of each day). */
function queryOf(filters: Filters, page: number): AuditListQuery {
  const [from, to] = filters.range ?? [];
  return {
    page,
    pageSize: PAGE_SIZE,
    sort: filters.sort,
    ...(filters.action ? { action: filters.action as AuditListQuery['action'] } : {}),
    ...(filters.actor?.trim() ? { actor: filters.actor.trim() } : {}),
    ...(from ? { from: from.startOf('day').toISOString() } : {}),
    ...(to ? { to: to.endOf('day').toISOString() } : {}),
    ...(filters.offline ? { offline: 'true' as const } : {}),
    ...(filters.tenant ? { tenant: filters.tenant } : {}),
  };
}

const changesText = (changes: unknown) => {
  const text = JSON.stringify(changes);
  return text === undefined || text === '{}' ? '' : text;
};

/**
 * The audit log (issue 18 point 11, docs/audit-log.md): /user/settings/audit-log for a school's owner
 * (the school's changes) and /audit-log for platform admins (every tenant's, with a tenant filter).
 * Filters, sort by time and paging are the server's; the export is the server's CSV of the filtered
 * events. On a phone the table scrolls sideways.
 */
export function AuditLogPage() {
  const user = useSessionUser();
  // Every tenant's log (the platform's) or the school's, as the server's abilities say.
  const platform = abilitiesOf(user).platformAudit;
  const [filters, setFilters] = useState<Filters>({ offline: false, sort: 'desc' });
  const [actorText, setActorText] = useState('');
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const tenants = useQuery({ ...auditTenantsQuery(), enabled: platform }).data ?? [];
  const query = useQuery(auditPageQuery(queryOf(filters, page)));
  const events = query.data?.events ?? [];
  const loading = query.isFetching;

  const change = useCallback((next: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...next }));
    setPage(1);
  }, []);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { blob, fileName } = await fetchAuditExport(queryOf(filters, 1));
      downloadFile(blob, fileName);
    } catch {
      toastError(MSG.auditExportFailed);
    } finally {
      setExporting(false);
    }
  };

  const columns: ResponsiveColumn<AuditEventView>[] = [
    {
      title: 'Time',
      key: 'time',
      sorter: true,
      sortOrder: filters.sort === 'asc' ? 'ascend' : 'descend',
      sortDirections: ['descend', 'ascend', 'descend'],
      render: (_, e) => <span className="audit-time">{time(e.appliedAt)}</span>,
    },
    ...(platform
      ? [
          {
            title: 'Tenant',
            key: 'tenant',
            priority: 2 as const,
            render: (_: unknown, e: AuditEventView) => e.tenant.name ?? `#${e.tenant.id}`,
          },
        ]
      : []),
    {
      title: 'Who',
      key: 'actor',
      render: (_, e) => (
        <>
          <div>{e.actor.name}</div>
          <div className="audit-secondary">{e.actor.email}</div>
        </>
      ),
    },
    { title: 'Action', key: 'action', render: (_, e) => <Tag>{e.action}</Tag> },
    {
      title: 'Target',
      key: 'target',
      priority: 2,
      render: (_, e) => (e.target.id ? `${e.target.type} ${e.target.id}` : e.target.type),
    },
    {
      title: 'What changed',
      key: 'changes',
      priority: 2,
      stack: true,
      render: (_, e) => <code className="audit-changes">{changesText(e.changes)}</code>,
    },
    {
      title: 'Offline',
      key: 'offline',
      priority: 2,
      render: (_, e) =>
        e.offline ? (
          <>
            <Tag color="orange">Offline</Tag>
            <div className="audit-secondary">queued {e.queuedAt ? time(e.queuedAt) : '—'}</div>
          </>
        ) : (
          '—'
        ),
    },
  ];

  const filtered = Boolean(
    filters.action || filters.actor || filters.range?.some(Boolean) || filters.offline || filters.tenant,
  );

  return (
    <section className="page audit-log-page">
      <PageTitle title="Audit log" />
      <div className="page-toolbar">
        <Typography.Title level={1} className="page-title">
          Audit log
        </Typography.Title>
        <Button onClick={() => void exportCsv()} loading={exporting} data-testid="audit-export">
          Export CSV
        </Button>
      </div>
      <div className="audit-filters" role="search" aria-label="Filter the audit log">
        <Select
          aria-label="Action"
          placeholder="Any action"
          allowClear
          showSearch
          value={filters.action}
          onChange={(action?: string) => change({ action })}
          options={AUDIT_ACTIONS.map((a) => ({ value: a, label: a }))}
          className="audit-filter-action"
          data-testid="audit-filter-action"
        />
        <Input.Search
          aria-label="Who (name or e-mail)"
          placeholder="Who (name or e-mail)"
          allowClear
          value={actorText}
          onChange={(e) => {
            setActorText(e.target.value);
            if (e.target.value === '') change({ actor: undefined });
          }}
          onSearch={(actor) => change({ actor: actor || undefined })}
          className="audit-filter-actor"
        />
        <DatePicker.RangePicker
          aria-label="Dates"
          value={filters.range ?? null}
          onChange={(range) => change({ range })}
          allowEmpty={[true, true]}
        />
        <Checkbox checked={filters.offline} onChange={(e) => change({ offline: e.target.checked })}>
          Made offline only
        </Checkbox>
        {platform && (
          <Select
            aria-label="Tenant"
            placeholder="Every tenant"
            allowClear
            showSearch
            optionFilterProp="label"
            value={filters.tenant}
            onChange={(tenant?: number) => change({ tenant })}
            options={tenants.map((t) => ({ value: t.id, label: t.name }))}
            className="audit-filter-tenant"
          />
        )}
      </div>
      {query.isError && !loading && events.length > 0 && (
        <div className="audit-error">
          <QueryFailed message={MSG.failedLoadAudit} onRetry={() => void query.refetch()} />
        </div>
      )}
      <ResponsiveTable<AuditEventView>
        aria-label="Audit log"
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={events}
        // The first load shows a skeleton; a later page, a spinner over the rows already shown.
        loading={loading && events.length > 0}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: query.data?.total ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        onChange={(pagination: TablePaginationConfig, _filters, sorter) => {
          const s = sorter as SorterResult<AuditEventView>;
          const sort = s.order === 'ascend' ? 'asc' : 'desc';
          if (sort !== filters.sort) change({ sort });
          else setPage(pagination.current ?? 1);
        }}
        locale={{
          emptyText: tableStateText(loading ? 'loading' : query.isError ? 'failed' : 'ready', {
            failed: MSG.failedLoadAudit,
            empty: filtered ? MSG.auditNoMatch : MSG.auditEmpty,
            onRetry: () => void query.refetch(),
          }),
        }}
      />
    </section>
  );
}
