import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { listInvoices, previewChange } from '../api/billing.api';
import type { ChangeRequest } from './change-flow';

/** Invoices per page (the server allows up to 100). */
const INVOICE_PAGE_SIZE = 12;

/** Billing's query keys and reads (invoices, a change's preview), in one place. */
export const billingKeys = {
  all: ['billing'] as const,
  invoices: () => [...billingKeys.all, 'invoices'] as const,
  changePreview: (request: ChangeRequest) => [...billingKeys.all, 'change-preview', request] as const,
};

/** The tenant's invoices, newest first, a page at a time (`startingAfter` the last one shown). */
export const invoicesQuery = () =>
  infiniteQueryOptions({
    queryKey: billingKeys.invoices(),
    queryFn: ({ pageParam, signal }) =>
      listInvoices({ limit: INVOICE_PAGE_SIZE, startingAfter: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => (page.hasMore ? page.invoices.at(-1)?.id : undefined),
  });

/** What a plan or seat change charges now (the server's preview): asked afresh at each opening. */
export const changePreviewQuery = (request: ChangeRequest) =>
  queryOptions({
    queryKey: billingKeys.changePreview(request),
    queryFn: () =>
      previewChange(
        request.kind === 'plan'
          ? { planId: request.planId, quantity: request.quantity }
          : { quantity: request.quantity },
      ),
    gcTime: 0,
  });
