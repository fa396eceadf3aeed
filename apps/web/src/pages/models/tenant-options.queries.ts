import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { fetchTenantOptionsPage } from './tenant-options.api';

/** Tenants per page of the tenant select. */
const TENANT_OPTIONS_PAGE_SIZE = 20;

/** The tenant select's query keys and reads, in one place. */
const tenantOptionKeys = {
  all: ['tenant-options'] as const,
  search: (search: string) => [...tenantOptionKeys.all, 'search', search] as const,
  byIds: (ids: string) => [...tenantOptionKeys.all, 'ids', ids] as const,
};

/** Tenants whose name matches `search`, a page at a time (the next page while fewer than the total). */
export const tenantSearchQuery = (search: string) =>
  infiniteQueryOptions({
    queryKey: tenantOptionKeys.search(search),
    queryFn: ({ pageParam, signal }) =>
      fetchTenantOptionsPage(
        { page: pageParam, pageSize: TENANT_OPTIONS_PAGE_SIZE, search: search || undefined },
        signal,
      ),
    initialPageParam: 1,
    getNextPageParam: (last, pages, lastPage) =>
      pages.reduce((n, p) => n + p.rows.length, 0) < last.total ? lastPage + 1 : undefined,
  });

/** The tenants of the given ids (comma-separated), for their names. */
export const tenantsByIdsQuery = (ids: string) =>
  queryOptions({
    queryKey: tenantOptionKeys.byIds(ids),
    queryFn: ({ signal }) =>
      fetchTenantOptionsPage({ ids, pageSize: ids.split(',').length }, signal).then((answer) => answer.rows),
  });
