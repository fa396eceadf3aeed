import type { TenantBrandingView } from '@helix/shared/schemas/tenant';
import type { Db } from '../db.ts';
import { presentTenantBranding } from '../presenters/branding.presenter.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorizeBranding } from './branding.policy.ts';

/** The caller's own tenant branding (GET /api/t/:tenant/tenant/get). */
export async function tenantBranding(db: Db, actor: Actor): Promise<TenantBrandingView> {
  authorizeBranding(actor, 'view');
  const tenant = await db.tenant.findUniqueOrThrow({
    where: { id: actor.tenant.id },
    include: { branding: true },
  });
  return presentTenantBranding(tenant, tenant.branding);
}
