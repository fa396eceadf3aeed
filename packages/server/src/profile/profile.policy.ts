import { AppError } from '../errors.ts';
import type { Actor, PolicyActor } from '../sessions/session.service.ts';

export type ProfileAction = 'view' | 'update';

/**
 * A profile is the signed-in user's own (administration-content 4, 6): viewing it needs Profile.view,
 * changing it Profile.update. Nobody reads or edits another user's profile through this path; another
 * user's id is the same 404 as a missing one.
 */
export const canViewProfile = (actor: PolicyActor): boolean => actor.permissions.includes('Profile.view');
export const canEditProfile = (actor: PolicyActor): boolean => actor.permissions.includes('Profile.update');

export function authorizeProfile(actor: Actor, action: ProfileAction, user: { id: number } = actor.user) {
  if (user.id !== actor.user.id) throw AppError.notFound();
  if (!(action === 'view' ? canViewProfile(actor) : canEditProfile(actor))) throw AppError.forbidden();
}
