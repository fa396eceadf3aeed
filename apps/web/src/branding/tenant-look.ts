import { useQuery } from '@tanstack/react-query';
import { BrandingView } from '@helix/shared/schemas/tenant';
import { tenantApi } from '../api/client';
import { queryClient } from '../api/query-client';
import { abilitiesOf, type SessionUser } from '../session/session-user';

/** The tenant's look (GET /tenant/get) in the query cache; a server render seeds it for its page. */
export const tenantLookKey = (tenant: string): unknown[] => ['tenant-look', tenant];

/** A look worth showing instead of Helix's: the school set a logo or a brand name. */
const branded = (view: BrandingView | null | undefined): view is BrandingView =>
  Boolean(view && (view.brandLogo || view.customBrandName));

/** Asks the server for the tenant's look (quietly: offline or failing, Helix's look stays). */
const fetchTenantLook = (): Promise<BrandingView | null> =>
  tenantApi
    .get<unknown>('/tenant/get', { toast: false })
    .then((answer) => BrandingView.parse(answer))
    .catch(() => null);

/** Asks for the tenant's look again (the branding page, after a save). */
export async function refreshTenantLook(tenant: string): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: tenantLookKey(tenant) });
}

/**
 * The school's logo, brand name and colours for the signed-in header: asked once per tenant (the
 * answer a server-rendered page came with counts), and again by the branding page after a save.
 * The platform's side keeps Helix's.
 */
export function useTenantLook(user: SessionUser | null): BrandingView | null {
  // A school's users (the server's `subscription` ability: a school's side of the product).
  const tenant = user && abilitiesOf(user).subscription ? user.tenant : null;
  const { data } = useQuery({
    queryKey: tenantLookKey(tenant ?? ''),
    queryFn: fetchTenantLook,
    enabled: tenant !== null,
    staleTime: Infinity,
  });
  return tenant && branded(data) ? data : null;
}
