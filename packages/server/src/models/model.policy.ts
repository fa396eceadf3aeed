import type { Prisma } from '../db.ts';
import { AppError } from '../errors.ts';
import type { Permission } from '@helix/shared';
import type { Actor } from '../sessions/session.service.ts';

/** Platform admins (isAdmin, the `services` tenant) run the catalogue and see every model. */
export const isPlatformAdmin = (actor: Actor): boolean => actor.user.isAdmin;

/**
 * The models a tenant may see: public ones and the non-public ones that list it. Deleted models are
 * never visible. `platform` (a platform admin or the platform tenant itself) sees every model.
 */
export function visibleToTenant(tenantId: number, platform = false): Prisma.ModelWhereInput {
  if (platform) return { deletedAt: null };
  return {
    deletedAt: null,
    OR: [{ isPublic: true }, { restrictedTenants: { some: { tenantId } } }],
  };
}

/**
 * The only way a model query is scoped (ARCHITECTURE 3.4): `{ where: { id, ...visibleTo(actor) } }`.
 * A model the actor may not see and a missing one are the same 404.
 */
export function visibleTo(actor: Actor): Prisma.ModelWhereInput {
  return visibleToTenant(actor.tenant.id, isPlatformAdmin(actor) || actor.tenant.isPlatform);
}

const CATALOGUE_PERMISSION = {
  add: 'Model.add',
  update: 'Model.update',
  delete: 'Model.delete',
} as const satisfies Record<string, Permission>;

/**
 * The model policy for catalogue changes (administration-content 6): a platform admin holding the
 * action's permission. 'change' is the coarse gate the route applies before an upload is read (either
 * permission); the save command checks the precise action ('add' or 'update') once it knows the id.
 */
export function authorizeCatalogue(actor: Actor, action: 'add' | 'update' | 'delete' | 'change'): void {
  const permissions: Permission[] =
    action === 'change'
      ? [CATALOGUE_PERMISSION.add, CATALOGUE_PERMISSION.update]
      : [CATALOGUE_PERMISSION[action]];
  if (!isPlatformAdmin(actor) || !permissions.some((p) => actor.permissions.includes(p))) {
    throw AppError.forbidden();
  }
}
