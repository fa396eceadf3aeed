import type { BrandingView } from '@helix/shared/schemas/tenant';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { presentBranding } from '../presenters/branding.presenter.ts';
import { portalHosts } from './update-branding.command.ts';

const include = { branding: true } as const;

/** 'Models.Example.com:443' → 'models.example.com'. */
export const hostnameOf = (host: string | undefined): string | null => {
  const name = host?.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  return name ? name : null;
};

/**
 * POST /tenant/custom-branding-detail (base, no login): the branding of a white-label page. By custom
 * domain, else by custom brand name (both case-insensitive); with neither, by the request's host, so
 * a visitor on a tenant's own domain sees that tenant's branding. An unknown brand name or domain
 * answers 404. The host lookup answers null (the route: 204 No Content) when the host is the
 * portal's own or no tenant's: every guest page on the portal asks, and "no white label here" is the
 * normal answer, not an error (a 404 would show as a failed request in every visitor's console).
 */
export async function customBrandingDetail(
  deps: Pick<ServerDeps, 'db' | 'config'>,
  input: { domain?: string; brandName?: string },
  requestHost?: string,
): Promise<BrandingView | null> {
  const { db } = deps;
  const domain = input.domain || input.brandName ? hostnameOf(input.domain) : hostnameOf(requestHost);
  const byDomain =
    domain && !portalHosts(deps.config).has(domain)
      ? await db.tenant.findFirst({
          where: { customDomainName: { equals: domain, mode: 'insensitive' } },
          include,
        })
      : null;
  const tenant =
    byDomain ??
    (input.brandName
      ? await db.tenant.findFirst({
          where: { customBrandName: { equals: input.brandName, mode: 'insensitive' } },
          include,
        })
      : null);
  if (!tenant && !input.domain && !input.brandName) return null;
  if (!tenant) throw AppError.notFound();
  return presentBranding(tenant, tenant.branding);
}
