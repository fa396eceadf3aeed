import type { EmbedLinkAbilities } from '@helix/shared/schemas/abilities';
import type { Prisma } from '../db.ts';
import type { PolicyActor } from '../sessions/session.service.ts';
import { canEmbedModel } from './model.policy.ts';

/** The tenant's owner (and a platform admin in the platform tenant) manages every link of the tenant. */
const managesEveryLink = (actor: PolicyActor): boolean => actor.user.isOwner || actor.user.isAdmin;

/**
 * Which share and embed links an actor may list and revoke (the route's `can('Model.embed')` is the
 * coarse gate): always only the actor's tenant's links; the tenant's owner (and a platform admin in the
 * platform tenant) all of them, anyone else the links they made. Another tenant's link and a missing
 * one are the same 404.
 */
export function linksVisibleTo(actor: PolicyActor): Prisma.EmbedTokenWhereInput {
  return { tenantId: actor.tenant.id, ...(managesEveryLink(actor) ? {} : { createdById: actor.user.id }) };
}

interface LinkTarget {
  tenantId: number;
  createdBy: { id: number };
  revokedAt: Date | null;
}

/** The same rule as linksVisibleTo, for one link already read. */
const managesLink = (actor: PolicyActor, link: LinkTarget): boolean =>
  canEmbedModel(actor) &&
  link.tenantId === actor.tenant.id &&
  (managesEveryLink(actor) || link.createdBy.id === actor.user.id);

/** Revoke: a link the actor manages that is not revoked yet (revoking again changes nothing). */
export const canRevokeLink = (actor: PolicyActor, link: LinkTarget): boolean =>
  managesLink(actor, link) && link.revokedAt === null;

/** Its expiry and its sites: a revoked link cannot change (409 from the commands). */
export const canEditLink = (actor: PolicyActor, link: LinkTarget): boolean =>
  managesLink(actor, link) && link.revokedAt === null;

export const embedLinkAbilities = (actor: PolicyActor, link: LinkTarget): EmbedLinkAbilities => ({
  revoke: canRevokeLink(actor, link),
  edit: canEditLink(actor, link),
});
