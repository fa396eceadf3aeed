import type { Actor } from '../sessions/session.service.ts';

/**
 * The one way a tenant-owned row (users, invites, bulk-invite batches, ...) is read
 * (ARCHITECTURE 3.4): `db.user.findFirst({ where: { id, ...tenantScope(actor) } })`. A platform admin
 * sees every tenant's rows; anyone else only their own tenant's, so another tenant's id and a missing
 * one are the same 404.
 */
export function tenantScope(actor: Actor): { tenantId?: number } {
  return actor.user.isAdmin ? {} : { tenantId: actor.tenant.id };
}

/** Rows of the actor's own tenant only, whoever the actor is (the tenant's users list, its invites). */
export function ownTenant(actor: Actor): { tenantId: number } {
  return { tenantId: actor.tenant.id };
}
