import type { Permission } from '@helix/shared';
import { AppError } from '../errors.ts';
import { isPlatformAdmin } from '../models/model.policy.ts';
import type { Actor } from '../sessions/session.service.ts';

export type PlatformUserAction = 'list' | 'add';

/**
 * The platform's view of every user: platform admins only. The users table (/users) needs
 * User.listing.view and the Assign Roles table (/permissions) Permission.listing.view: either lists.
 * Adding a customer (tenant, owner and a granted plan) needs User.invite.
 */
export function authorize(actor: Actor, action: PlatformUserAction): void {
  const needs: Permission[][] =
    action === 'list' ? [['User.listing.view'], ['Permission.listing.view']] : [['User.invite']];
  const allowed = needs.some((set) => set.every((p) => actor.permissions.includes(p)));
  if (!isPlatformAdmin(actor) || !allowed) throw AppError.forbidden();
}
