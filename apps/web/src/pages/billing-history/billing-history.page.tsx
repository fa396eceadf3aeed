import { Button, Tag, Typography } from 'antd';
import type { InvoiceView } from '@helix/shared/schemas/billing';
import { MSG } from '@helix/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router-dom';
import { invoicesQuery } from '../../billing/billing.queries';
import { formatMoney, formatShortDate } from '../../billing/money';
import { abilitiesOf } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { PageTitle } from '../../ui/page-title';
import './billing-history.css';
import { QueryEmpty, QueryFailed, QueryLoading } from '../../ui/query-state';
import { ResponsiveTable, type ResponsiveColumn } from '../../ui/responsive-table';

const STATUS_TAG: Record<NonNullable<InvoiceView['status']>, { color: string; label: string }> = {
  paid: { color: 'green', label: 'Paid' },
  open: { color: 'orange', label: 'Open' },
  draft: { color: 'default', label: 'Draft' },
  uncollectible: { color: 'red', label: 'Uncollectible' },
  void: { color: 'default', label: 'Void' },
};

const period = (invoice: InvoiceView) =>
  invoice.periodStart !== null && invoice.periodEnd !== null && invoice.periodEnd > invoice.periodStart
    ? `${formatShortDate(invoice.periodStart)} – ${formatShortDate(invoice.periodEnd)}`
    : '—';

/**
 * /user/settings/billing-history (issue 15): the tenant's invoices, newest first, from Stripe through
 * the API: number, date, period, amount, status and the hosted invoice and its PDF. "Show more" asks
 * for the next page after the last invoice shown (`startingAfter`). At phone width the period and
 * description columns fold away; the number, amount, status and links stay.
 */
export function BillingHistoryPage() {
  const user = useSessionUser();
  const allowed = abilitiesOf(user).billing;
  const query = useInfiniteQuery({ ...invoicesQuery(), enabled: allowed });
  const invoices = query.data?.pages.flatMap((page) => page.invoices) ?? [];
  const loading = query.isPending || query.isFetchingNextPage;
  // A failed first page retries the whole list; a failed further page, that page.
  const retry = () => void (query.data ? query.fetchNextPage() : query.refetch());

  if (!allowed) return <Navigate to="/unauthorized" replace />;

  const columns: ResponsiveColumn<InvoiceView>[] = [
    {
      title: 'Invoice',
      key: 'number',
      role: 'title',
      render: (_, invoice) => (
        <>
          <div className="invoice-number">{invoice.number ?? invoice.id}</div>
          <div className="invoice-date">{formatShortDate(invoice.created)}</div>
        </>
      ),
    },
    { title: 'Period', key: 'period', priority: 2, render: (_, invoice) => period(invoice) },
    {
      title: 'Description',
      key: 'description',
      priority: 3,
      render: (_, invoice) => invoice.description ?? '—',
    },
    {
      title: 'Amount',
      key: 'amount',
      align: 'right',
      render: (_, invoice) => formatMoney(invoice.total, invoice.currency),
    },
    {
      title: 'Status',
      key: 'status',
      render: (_, invoice) => {
        const tag = invoice.status ? STATUS_TAG[invoice.status] : null;
        return tag ? <Tag color={tag.color}>{tag.label}</Tag> : '—';
      },
    },
    {
      title: 'Links',
      key: 'links',
      role: 'actions',
      render: (_, invoice) => (
        <span className="invoice-links">
          {invoice.hostedInvoiceUrl && (
            <a href={invoice.hostedInvoiceUrl} target="_blank" rel="noreferrer">
              {invoice.payable ? 'Pay' : 'View'}
              <span className="visually-hidden"> invoice {invoice.number ?? invoice.id}</span>
            </a>
          )}
          {invoice.invoicePdf && (
            <a href={invoice.invoicePdf} target="_blank" rel="noreferrer">
              PDF<span className="visually-hidden"> of invoice {invoice.number ?? invoice.id}</span>
            </a>
          )}
        </span>
      ),
    },
  ];

  return (
    <section className="page billing-history-page">
      <PageTitle title="Billing History" />
      <Typography.Title level={1} className="page-title">
        Billing History
      </Typography.Title>
      {(query.isError || query.isFetchNextPageError) && !loading && (
        <div className="billing-history-error">
          <QueryFailed message={MSG.failedLoadInvoices} onRetry={retry} />
        </div>
      )}
      <ResponsiveTable
        aria-label="Invoices"
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={invoices}
        pagination={false}
        // The first page shows a skeleton; a further page, a spinner over the rows already shown.
        loading={loading && invoices.length > 0}
        locale={{
          emptyText: loading ? <QueryLoading /> : <QueryEmpty message={MSG.noInvoices} />,
        }}
      />
      {!loading && !query.isFetchNextPageError && query.hasNextPage && (
        <div className="billing-history-more">
          <Button onClick={() => void query.fetchNextPage()}>Show more</Button>
        </div>
      )}
    </section>
  );
}
