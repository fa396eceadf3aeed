import { queryOptions } from '@tanstack/react-query';
import { subscriptionSummary } from '../../api/billing.api';
import { fetchPlans } from '../../api/plans.api';
import { fetchViewsSummary } from '../../api/views-usage.api';

/*
 * The subscription page's and the plan list's queries, by key: the components ask them with these
 * options, and a server render fills the same keys (src/server-render/route-prefetch.ts).
 */

/** GET /subscription/summary (quiet: the page still offers the plans when it cannot be read). */
export const summaryQuery = queryOptions({
  queryKey: ['subscription', 'summary'],
  queryFn: () => subscriptionSummary({ toast: false }),
});

/** GET /views/summary: the period's usage. */
export const viewsSummaryQuery = queryOptions({
  queryKey: ['views', 'summary'],
  queryFn: ({ signal }) => fetchViewsSummary(signal),
});

/** The plan catalogue: a guest's (GET /guest/subscription/list) or the tenant's (GET /subscriptionplan/all). */
export const planListQuery = (source: 'guest' | 'tenant') =>
  queryOptions({
    queryKey: ['plans', source],
    queryFn: ({ signal }) => fetchPlans(source, signal),
  });
