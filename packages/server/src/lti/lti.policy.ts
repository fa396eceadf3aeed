import { AppError } from '../errors.ts';
import type { Actor, PolicyActor } from '../sessions/session.service.ts';
import { canViewUserStats } from '../stats/stats.policy.ts';

/**
 * Who manages a school's LTI registrations and keys (docs/lti.md): the school's owner only, as for the
 * audit log. A registration lets a learning platform open the school's models without a Helix account
 * (views counted on the school's plan), which is the subscriber's decision, not a role's. The platform
 * tenant has no LTI registrations.
 */
export function authorizeLti(actor: Actor): { tenantId: number } {
  if (canManageLti(actor)) {
    return { tenantId: actor.tenant.id };
  }
  throw AppError.forbidden();
}

/** The school's LTI registrations: its owner's (the session's `lti` ability, authorizeLti). */
export const canManageLti = (actor: PolicyActor): boolean =>
  actor.user.isOwner && !actor.user.isAdmin && !actor.tenant.isPlatform;

/**
 * Who reads the views per class (statistics): the owner, and a school user who may read the users'
 * statistics (canViewUserStats), as the top users table.
 */
export const canViewClassStats = (actor: PolicyActor): boolean =>
  !actor.tenant.isPlatform && !actor.user.isAdmin && (actor.user.isOwner || canViewUserStats(actor));

export function authorizeClassStats(actor: Actor): { tenantId: number } {
  if (canViewClassStats(actor)) {
    return { tenantId: actor.tenant.id };
  }
  throw AppError.forbidden();
}
