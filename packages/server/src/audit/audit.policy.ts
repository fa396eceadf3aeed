import { AppError } from '../errors.ts';
import type { PolicyActor } from '../sessions/session.service.ts';

/**
 * Who reads the audit log (docs/audit-log.md): a platform admin reads every tenant's events; a
 * school's owner (the subscriber, `isOwner`) reads their own school's. Nobody else: not the school's
 * other users, whatever their roles (a role is a set of permissions the owner hands out, and the log
 * shows what those users did).
 */
export type AuditScope = { all: true } | { all: false; tenantId: number };

export const canReadPlatformAudit = (actor: PolicyActor): boolean => actor.user.isAdmin;
export const canReadTenantAudit = (actor: PolicyActor): boolean =>
  !actor.user.isAdmin && actor.user.isOwner && !actor.tenant.isPlatform;

export function authorizeAudit(actor: PolicyActor): AuditScope {
  if (canReadPlatformAudit(actor)) return { all: true };
  if (canReadTenantAudit(actor)) return { all: false, tenantId: actor.tenant.id };
  throw AppError.forbidden();
}
