import type { Prisma } from '../db.ts';
import type { Actor } from '../sessions/session.service.ts';

/**
 * Which share and embed links an actor may list and revoke (the route's `can('Model.embed')` is the
 * coarse gate): always only the actor's tenant's links; the tenant's owner (and a platform admin in the
 * platform tenant) all of them, anyone else the links they made. Another tenant's link and a missing
 * one are the same 404.
 */
export function linksVisibleTo(actor: Actor): Prisma.EmbedTokenWhereInput {
  const everyLink = actor.user.isOwner || actor.user.isAdmin;
  return { tenantId: actor.tenant.id, ...(everyLink ? {} : { createdById: actor.user.id }) };
}
