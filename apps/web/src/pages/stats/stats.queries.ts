import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '../../api/api-error';
import { logError } from '../../logging/error-logger';
import { fetchModels, fetchTenants } from '../../models/models.api';
import { fetchClassStats } from '../lti/lti.api';

/** A failed statistics read is logged (a lapsed session is the session's own business). */
function logged<T>(what: string, read: Promise<T>, signal: AbortSignal): Promise<T> {
  return read.catch((error: unknown) => {
    if (!signal.aborted && !(error instanceof ApiError && error.statusCode === 401))
      logError(`Statistics: ${what} failed`, error);
    throw error;
  });
}

/** The statistics page's query keys and reads, in one place. */
const statsKeys = {
  all: ['stats'] as const,
  models: () => [...statsKeys.all, 'models'] as const,
  tenants: (ids: string) => [...statsKeys.all, 'tenants', ids] as const,
  classes: () => [...statsKeys.all, 'classes'] as const,
};

/** Each model's figures (/model/all?stats). */
export const modelStatsQuery = () =>
  queryOptions({
    queryKey: statsKeys.models(),
    queryFn: ({ signal }) => logged('/model/all', fetchModels({ stats: true }, signal), signal),
  });

/** The names of the given tenants (comma-separated ids): the cards' top tenants. */
export const topTenantsQuery = (ids: string) =>
  queryOptions({
    queryKey: statsKeys.tenants(ids),
    queryFn: ({ signal }) => fetchTenants({ signal, toast: false }, ids),
  });

/** Views per class (LTI courses). */
export const classStatsQuery = () =>
  queryOptions({
    queryKey: statsKeys.classes(),
    queryFn: ({ signal }) => logged('/stats/classes', fetchClassStats(signal), signal),
  });
