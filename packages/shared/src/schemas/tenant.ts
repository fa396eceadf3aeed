import { z } from 'zod';
import { opaqueText, optionalText } from './text.ts';

/** The `:tenant` of `/api/t/:tenant` (a domainPrefix). */
export const TenantParams = z.strictObject({
  tenant: opaqueText(63).pipe(z.string().min(1)),
});

/**
 * POST /tenant/custom-branding-detail: find a tenant's branding by its custom domain or brand name;
 * with neither, by the request's Host (a visitor on a tenant's custom domain).
 */
export const CustomBrandingRequest = z.strictObject({
  domain: optionalText(253),
  brandName: optionalText(100),
});
export type CustomBrandingRequest = z.input<typeof CustomBrandingRequest>;

/** A tenant's branding as the API presents it. */
export const BrandingView = z.object({
  tenant: z.string(),
  name: z.string(),
  customBrandName: z.string().nullable(),
  customDomainName: z.string().nullable(),
  primaryColor: z.string(),
  textColor: z.string(),
  backgroundColor: z.string(),
  brandLogo: z.string().nullable(),
  modelBgLogo: z.string().nullable(),
  modelLoadingLogo: z.string().nullable(),
});
export type BrandingView = z.infer<typeof BrandingView>;

/**
 * GET /tenant/get and POST /tenant/update: the caller's own branding with its version (0 before the
 * tenant ever saved it), which an offline edit sends back as If-Match.
 */
export const TenantBrandingView = BrandingView.extend({ version: z.number().int() });
export type TenantBrandingView = z.infer<typeof TenantBrandingView>;
