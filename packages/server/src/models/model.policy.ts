import type { Prisma } from '../db.ts';
import { AppError } from '../errors.ts';
import type { Permission } from '@helix/shared';
import type { ModelAbilities } from '@helix/shared/schemas/abilities';
import type { Actor, PolicyActor } from '../sessions/session.service.ts';

/** Platform admins (isAdmin, the `services` tenant) run the catalogue and see every model. */
export const isPlatformAdmin = (actor: PolicyActor): boolean => actor.user.isAdmin;

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
 * Catalogue changes (administration-content 6): a platform admin holding the action's permission.
 * 'change' is the coarse gate the route applies before an upload is read (either permission).
 */
function mayChangeCatalogue(actor: PolicyActor, action: 'add' | 'update' | 'delete' | 'change'): boolean {
  const permissions: Permission[] =
    action === 'change'
      ? [CATALOGUE_PERMISSION.add, CATALOGUE_PERMISSION.update]
      : [CATALOGUE_PERMISSION[action]];
  return isPlatformAdmin(actor) && permissions.some((p) => actor.permissions.includes(p));
}

export const canListModels = (actor: PolicyActor): boolean =>
  actor.permissions.includes('Model.listing.view');
export const canAddModel = (actor: PolicyActor): boolean => mayChangeCatalogue(actor, 'add');
/** The model (already read through visibleTo) may be opened in the viewer. */
export const canViewModel = (actor: PolicyActor, _model?: { id: number }): boolean =>
  actor.permissions.includes('Model.view');
export const canEditModel = (actor: PolicyActor, _model?: { id: number }): boolean =>
  mayChangeCatalogue(actor, 'update');
export const canDeleteModel = (actor: PolicyActor, _model?: { id: number }): boolean =>
  mayChangeCatalogue(actor, 'delete');
/** Share and embed (Model.embed: in a school's permissions only with the plan's modelEmbed flag). */
export const canEmbedModel = (actor: PolicyActor, _model?: { id: number }): boolean =>
  actor.permissions.includes('Model.embed');

/**
 * Lead a live lesson on it (issue 32): Lesson.lead among the effective permissions, which a school
 * has only while its plan in force sells live lessons (auth/permissions.ts, the plan's liveLessons).
 */
export const canLeadLesson = (actor: PolicyActor, _model?: { id: number }): boolean =>
  actor.permissions.includes('Lesson.lead');

/** What `actor` may do with `model` (the grid's cards). */
export const modelAbilities = (actor: PolicyActor, model: { id: number }): ModelAbilities => ({
  view: canViewModel(actor, model),
  edit: canEditModel(actor, model),
  embed: canEmbedModel(actor, model),
  delete: canDeleteModel(actor, model),
  lesson: canLeadLesson(actor, model),
});

/**
 * The model policy for catalogue changes, checked in the commands; the save command checks the
 * precise action ('add' or 'update') once it knows the id.
 */
export function authorizeCatalogue(actor: Actor, action: 'add' | 'update' | 'delete' | 'change'): void {
  if (!mayChangeCatalogue(actor, action)) throw AppError.forbidden();
}
