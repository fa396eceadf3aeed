import { queryOptions } from '@tanstack/react-query';
import { fetchBulkBatch, fetchTenantUsers, fetchUserDetail } from './users.api';

/** How often a running bulk invite's progress is asked for. */
const BULK_POLL_MS = 1000;

/** The users area's query keys and reads, in one place. */
export const userKeys = {
  all: ['users'] as const,
  everyone: () => [...userKeys.all, 'everyone'] as const,
  detail: (id: number) => [...userKeys.all, 'detail', id] as const,
  bulkBatch: (id: number) => [...userKeys.all, 'bulk-batch', id] as const,
};

/** Every user of the school (the bulk invite's duplicate check and seats). */
export const allUsersQuery = () =>
  queryOptions({
    queryKey: userKeys.everyone(),
    queryFn: ({ signal }) => fetchTenantUsers({ signal, toast: false }),
  });

/** One user, with roles and the models they opened. */
export const userDetailQuery = (id: number) =>
  queryOptions({
    queryKey: userKeys.detail(id),
    queryFn: ({ signal }) => fetchUserDetail(id, { signal, toast: false }),
  });

/** A bulk invite's progress, asked again every BULK_POLL_MS until it is done (also after a failed ask). */
export const bulkBatchQuery = (id: number) =>
  queryOptions({
    queryKey: userKeys.bulkBatch(id),
    queryFn: () => fetchBulkBatch(id, { toast: false }),
    refetchInterval: (query) => (query.state.data?.status === 'done' ? false : BULK_POLL_MS),
  });
