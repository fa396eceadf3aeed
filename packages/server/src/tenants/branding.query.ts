import type { BrandingView } from '@helix/shared/schemas/tenant';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import { presentBranding } from '../presenters/branding.presenter.ts';

/**
 * Public branding lookup (white-label pages before login): by custom domain, else by custom brand
 * name, both case-insensitive. Unknown answers 404.
 */
export async function findBranding(
  db: Db,
  input: { domain?: string; brandName?: string },
): Promise<BrandingView> {
  const tenant =
    (input.domain
      ? await db.tenant.findFirst({
          where: { customDomainName: { equals: input.domain, mode: 'insensitive' } },
          include: { branding: true },
        })
      : null) ??
    (input.brandName
      ? await db.tenant.findFirst({
          where: { customBrandName: { equals: input.brandName, mode: 'insensitive' } },
          include: { branding: true },
        })
      : null);
  if (!tenant) throw AppError.notFound();
  return presentBranding(tenant, tenant.branding);
}

/** The caller's own tenant branding (GET /api/t/:tenant/tenant/get). */
export async function tenantBranding(db: Db, tenantId: number): Promise<BrandingView> {
  const tenant = await db.tenant.findUniqueOrThrow({ where: { id: tenantId }, include: { branding: true } });
  return presentBranding(tenant, tenant.branding);
}
