import { TenantOptionPage, type TenantOptionsQuery } from '@helix/shared/schemas/tenant-option';
import { tenantApi } from '../../api/client';
import { withListQuery } from '../../ui/use-server-list';

/** One page of customer tenants by name (GET /tenant/getAllTenants?page=…, platform admins). */
export const fetchTenantOptionsPage = async (
  query: TenantOptionsQuery,
  signal?: AbortSignal,
): Promise<TenantOptionPage> =>
  TenantOptionPage.parse(
    await tenantApi.get<unknown>(withListQuery('/tenant/getAllTenants', query), { signal, toast: false }),
  );
