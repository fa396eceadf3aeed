import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AuditListQuery } from '@helix/shared/schemas/audit';
import { fetchTenants } from '../../models/models.api';
import { fetchAuditPage } from './audit.api';

/** The audit log's query keys and reads, in one place. */
const auditKeys = {
  all: ['audit'] as const,
  page: (query: AuditListQuery) => [...auditKeys.all, 'page', query] as const,
  tenants: () => [...auditKeys.all, 'tenants'] as const,
};

/** One page of the filtered events; the rows shown stay while the next page loads. */
export const auditPageQuery = (query: AuditListQuery) =>
  queryOptions({
    queryKey: auditKeys.page(query),
    queryFn: ({ signal }) => fetchAuditPage(query, signal),
    placeholderData: keepPreviousData,
  });

/** Every tenant's name, for the platform's tenant filter (none when the read fails). */
export const auditTenantsQuery = () =>
  queryOptions({
    queryKey: auditKeys.tenants(),
    queryFn: ({ signal }) => fetchTenants({ signal, toast: false }).catch(() => []),
  });
