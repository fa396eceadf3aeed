import type { BrandingView } from '@helix/shared/schemas/tenant';
import type { Branding, Tenant } from '../db.ts';

/** Defaults of the specification (accounts 9) for a tenant that has no Branding row yet. */
export const DEFAULT_BRANDING = {
  primaryColor: '#5f51fb',
  textColor: '#ffffff',
  backgroundColor: '#ffffff',
} as const;

export function presentBranding(tenant: Tenant, branding: Branding | null): BrandingView {
  return {
    tenant: tenant.domainPrefix,
    name: tenant.name,
    customBrandName: tenant.customBrandName,
    customDomainName: tenant.customDomainName,
    primaryColor: branding?.primaryColor ?? DEFAULT_BRANDING.primaryColor,
    textColor: branding?.textColor ?? DEFAULT_BRANDING.textColor,
    backgroundColor: branding?.backgroundColor ?? DEFAULT_BRANDING.backgroundColor,
    brandLogo: branding?.brandLogo ?? null,
    modelBgLogo: branding?.modelBgLogo ?? null,
    modelLoadingLogo: branding?.modelLoadingLogo ?? null,
  };
}
