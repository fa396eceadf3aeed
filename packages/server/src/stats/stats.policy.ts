import { BUILT_IN_ROLES } from '@helix/shared';
import { AppError } from '../errors.ts';
import type { PolicyActor } from '../sessions/session.service.ts';

/**
 * Statistics are an admin's (administration-content 1 and 2: "An Admin manages ... statistics",
 * "Heading Statistics (admin-only UI)"): a platform admin, a school's owner, or a school user holding
 * the Admin role. Each part then needs its listing permission (section 6: model cards need model
 * listing, user cards user listing). A plain User reads none of it, whatever their permissions.
 */
export const isStatsReader = (actor: PolicyActor): boolean =>
  actor.user.isAdmin ||
  actor.user.isOwner ||
  actor.user.roles.some(({ role }) => role.name === BUILT_IN_ROLES.admin);

/** The per-model statistics (views per model, top tenants, the views export). */
export const canViewModelStats = (actor: PolicyActor): boolean =>
  isStatsReader(actor) && actor.permissions.includes('Model.listing.view');

/** The per-user statistics (top users, views per class). */
export const canViewUserStats = (actor: PolicyActor): boolean =>
  isStatsReader(actor) && actor.permissions.includes('User.listing.view');

/** The /stats page: either part. */
export const canViewStats = (actor: PolicyActor): boolean =>
  canViewModelStats(actor) || canViewUserStats(actor);

export function authorizeStats(actor: PolicyActor, part: 'models' | 'users'): void {
  const allowed = part === 'models' ? canViewModelStats(actor) : canViewUserStats(actor);
  if (!allowed) throw AppError.forbidden();
}
