import { BRANDING_DEFAULTS } from '@helix/shared/schemas/branding';
import type { BrandingView, TenantBrandingView } from '@helix/shared/schemas/tenant';
import type { Tenant } from '../db.ts';
import { imageUrl } from './image-url.ts';

/**
 * The specification's defaults (administration-content 9). This presenter is the only place they are
 * applied: a tenant without a Branding row, or a column left empty, reads as the default here and
 * nowhere else (embed detail, viewer load, white-label pages, the branding form).
 */
export const DEFAULT_BRANDING = BRANDING_DEFAULTS;

/** Whatever a caller has of a Branding row (a full row, a raw query's columns, or nothing). */
export interface BrandingSource {
  primaryColor?: string | null;
  textColor?: string | null;
  backgroundColor?: string | null;
  brandLogo?: string | null;
  modelBgLogo?: string | null;
  modelLoadingLogo?: string | null;
}

export type BrandingLook = Pick<
  BrandingView,
  'primaryColor' | 'textColor' | 'backgroundColor' | 'brandLogo' | 'modelBgLogo' | 'modelLoadingLogo'
>;

/**
 * Colours with their defaults and images as URLs (a removed image is null: the client shows its own
 * default). `origin` makes image URLs absolute, for the viewer host on another origin.
 */
export function presentBrandingLook(branding: BrandingSource | null | undefined, origin = ''): BrandingLook {
  return {
    primaryColor: branding?.primaryColor || DEFAULT_BRANDING.primaryColor,
    textColor: branding?.textColor || DEFAULT_BRANDING.textColor,
    backgroundColor: branding?.backgroundColor || DEFAULT_BRANDING.backgroundColor,
    brandLogo: imageUrl(branding?.brandLogo, origin),
    modelBgLogo: imageUrl(branding?.modelBgLogo, origin),
    modelLoadingLogo: imageUrl(branding?.modelLoadingLogo, origin),
  };
}

export function presentBranding(
  tenant: Pick<Tenant, 'domainPrefix' | 'name' | 'customBrandName' | 'customDomainName'>,
  branding: BrandingSource | null | undefined,
  origin = '',
): BrandingView {
  return {
    tenant: tenant.domainPrefix,
    name: tenant.name,
    customBrandName: tenant.customBrandName,
    customDomainName: tenant.customDomainName,
    ...presentBrandingLook(branding, origin),
  };
}

/** The owner's own branding (GET /tenant/get, POST /tenant/update): with its version, 0 without a row. */
export function presentTenantBranding(
  tenant: Pick<Tenant, 'domainPrefix' | 'name' | 'customBrandName' | 'customDomainName'>,
  branding: (BrandingSource & { version: number }) | null | undefined,
): TenantBrandingView {
  return { ...presentBranding(tenant, branding), version: branding?.version ?? 0 };
}
