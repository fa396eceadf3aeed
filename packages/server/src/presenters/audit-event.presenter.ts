import type { AuditEventView } from '@helix/shared/schemas/audit';
import type { AuditEvent } from '../db.ts';

export type TenantNames = Map<number, { name: string; domainPrefix: string }>;

/** An audit event as the API shows it (the tenant's name when the tenant still exists). */
export function presentAuditEvent(row: AuditEvent, tenants: TenantNames): AuditEventView {
  const tenant = tenants.get(row.tenantId);
  return {
    id: row.id.toString(),
    tenant: { id: row.tenantId, name: tenant?.name ?? null, domainPrefix: tenant?.domainPrefix ?? null },
    actor: { id: row.actorId, name: row.actorName, email: row.actorEmail },
    action: row.action,
    target: { type: row.targetType, id: row.targetId },
    changes: row.changes,
    offline: row.offline,
    queuedAt: row.queuedAt?.toISOString() ?? null,
    appliedAt: row.appliedAt.toISOString(),
    requestId: row.requestId,
  };
}
