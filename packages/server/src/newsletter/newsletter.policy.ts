import { AppError } from '../errors.ts';
import { isPlatformAdmin } from '../models/model.policy.ts';
import type { Actor, PolicyActor } from '../sessions/session.service.ts';

/**
 * The newsletter list is the platform's: platform admins holding Sidebar.listing.view (the vocabulary
 * has no newsletter permission; the list is an item of the admin sidebar).
 */
export const canListSubscribers = (actor: PolicyActor): boolean =>
  isPlatformAdmin(actor) && actor.permissions.includes('Sidebar.listing.view');

export function authorize(actor: Actor, _action: 'list'): void {
  if (!canListSubscribers(actor)) throw AppError.forbidden();
}
