import { MSG } from '@helix/shared';
import { AppError } from '../errors.ts';
import type { Actor, PolicyActor } from '../sessions/session.service.ts';

export type BrandingAction = 'view' | 'update';

/**
 * Who may read and change a tenant's branding (administration-content 6): every signed-in member of the
 * tenant reads it; changing it needs Brand.update, which a non-admin holds only when their role grants
 * it and their tenant's plan includes Custom Branding (auth/permissions.ts). Platform admins have no
 * branding of their own (their branding page is /unauthorized). Another tenant is the same 404 as a
 * missing one.
 */
export const canEditBranding = (actor: PolicyActor): boolean =>
  !actor.user.isAdmin && !actor.tenant.isPlatform && actor.permissions.includes('Brand.update');

export function authorizeBranding(
  actor: Actor,
  action: BrandingAction,
  tenant: { id: number } = actor.tenant,
) {
  if (tenant.id !== actor.tenant.id) throw AppError.notFound();
  if (action === 'view') return;
  if (actor.user.isAdmin || actor.tenant.isPlatform) throw AppError.forbidden(MSG.brandingNotForAdmins);
  if (!actor.permissions.includes('Brand.update')) throw AppError.forbidden();
}
