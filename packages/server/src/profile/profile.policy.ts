import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';

export type ProfileAction = 'view' | 'update';

/**
 * A profile is the signed-in user's own (administration-content 4, 6): viewing it needs Profile.view,
 * changing it Profile.update. Nobody reads or edits another user's profile through this path; another
 * user's id is the same 404 as a missing one.
 */
export function authorizeProfile(actor: Actor, action: ProfileAction, user: { id: number } = actor.user) {
  if (user.id !== actor.user.id) throw AppError.notFound();
  const needed = action === 'view' ? 'Profile.view' : 'Profile.update';
  if (!actor.permissions.includes(needed)) throw AppError.forbidden();
}
