import { AppError } from '../errors.ts';
import { isPlatformAdmin } from '../models/model.policy.ts';
import type { Actor, PolicyActor } from '../sessions/session.service.ts';

export type SupportAction = 'create' | 'list' | 'update';

/**
 * Support requests (issue 10):
 * - create: every signed-in user (the Help entry is in the header for everyone, including a user whose
 *   plan lapsed: they need help most). Whether it is fast-track is decided by supportTierOf, not here.
 * - list, update (and the screenshot): platform admins holding Sidebar.listing.view (the Support page
 *   is an item of the admin sidebar, like the newsletter list).
 */
export const canWorkSupportQueue = (actor: PolicyActor): boolean =>
  isPlatformAdmin(actor) && actor.permissions.includes('Sidebar.listing.view');

export function authorizeSupport(actor: Actor, action: SupportAction): void {
  if (action === 'create') return;
  if (!canWorkSupportQueue(actor)) throw AppError.forbidden();
}
