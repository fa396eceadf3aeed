import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';

/**
 * Who manages a school's LTI registrations and keys (docs/lti.md): the school's owner only, as for the
 * audit log. A registration lets a learning platform open the school's models without a Helix account
 * (views counted on the school's plan), which is the subscriber's decision, not a role's. The platform
 * tenant has no LTI registrations.
 */
export function authorizeLti(actor: Actor): { tenantId: number } {
  if (actor.user.isOwner && !actor.user.isAdmin && !actor.tenant.isPlatform) {
    return { tenantId: actor.tenant.id };
  }
  throw AppError.forbidden();
}

/**
 * Who reads the views per class (statistics): the owner, and a school user who may read the users'
 * statistics (User.listing.view), as the top users table.
 */
export function authorizeClassStats(actor: Actor): { tenantId: number } {
  if (actor.tenant.isPlatform || actor.user.isAdmin) throw AppError.forbidden();
  if (actor.user.isOwner || actor.permissions.includes('User.listing.view')) {
    return { tenantId: actor.tenant.id };
  }
  throw AppError.forbidden();
}
