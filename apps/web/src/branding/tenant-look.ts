import { atom, useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { BrandingView } from '@helix/shared/schemas/tenant';
import { tenantApi } from '../api/client';
import { appStore } from '../session/session.atoms';
import type { SessionUser } from '../session/session-user';

/** The signed-in user's school look (GET /tenant/get), per tenant; null: not loaded, or Helix's. */
const tenantLookAtom = atom<{ tenant: string; look: BrandingView | null } | null>(null);
let asked: string | null = null;

/** A look worth showing instead of Helix's: the school set a logo or a brand name. */
const branded = (view: BrandingView): boolean => Boolean(view.brandLogo || view.customBrandName);

/** Asks the server for the tenant's look (quietly: offline or failing, Helix's look stays). */
export async function refreshTenantLook(tenant: string): Promise<void> {
  asked = tenant;
  const view = await tenantApi
    .get<unknown>('/tenant/get', { toast: false })
    .then((answer) => BrandingView.parse(answer))
    .catch(() => null);
  appStore.set(tenantLookAtom, { tenant, look: view && branded(view) ? view : null });
}

/**
 * The school's logo, brand name and colours for the signed-in header: asked once per tenant per page
 * load, and again by the branding page after a save. Platform admins keep Helix's.
 */
export function useTenantLook(user: SessionUser | null): BrandingView | null {
  const tenant = user && !user.isAdmin ? user.tenant : null;
  const current = useAtomValue(tenantLookAtom);
  useEffect(() => {
    if (tenant && asked !== tenant) void refreshTenantLook(tenant);
  }, [tenant]);
  return tenant && current?.tenant === tenant ? current.look : null;
}
