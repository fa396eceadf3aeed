import Papa from 'papaparse';
import { safeCell } from '@helix/shared/safe-cell';
import {
  AUDIT_CSV_HEADER,
  AUDIT_EXPORT_MAX,
  type AuditFiltersInput,
  type AuditListQueryInput,
  type AuditPage,
} from '@helix/shared/schemas/audit';
import type { Db, Prisma } from '../db.ts';
import { presentAuditEvent, type TenantNames } from '../presenters/audit-event.presenter.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorizeAudit } from './audit.policy.ts';

/** The filters as a query, always inside the caller's scope: another tenant's events never match. */
function whereOf(actor: Actor, filters: AuditFiltersInput): Prisma.AuditEventWhereInput {
  const scope = authorizeAudit(actor);
  const where: Prisma.AuditEventWhereInput = scope.all
    ? filters.tenant !== undefined
      ? { tenantId: filters.tenant }
      : {}
    : { tenantId: scope.tenantId };
  if (filters.action) where.action = filters.action;
  if (filters.actor) {
    where.OR = [
      { actorName: { contains: filters.actor, mode: 'insensitive' } },
      { actorEmail: { contains: filters.actor, mode: 'insensitive' } },
    ];
  }
  if (filters.from || filters.to) {
    where.appliedAt = {
      ...(filters.from ? { gte: new Date(filters.from) } : {}),
      ...(filters.to ? { lte: new Date(filters.to) } : {}),
    };
  }
  if (filters.offline) where.offline = true;
  return where;
}

const orderOf = (filters: AuditFiltersInput): Prisma.AuditEventOrderByWithRelationInput[] => [
  { appliedAt: filters.sort },
  { id: filters.sort },
];

async function tenantNames(db: Db, ids: number[]): Promise<TenantNames> {
  const tenants = await db.tenant.findMany({
    where: { id: { in: [...new Set(ids)] } },
    select: { id: true, name: true, domainPrefix: true },
  });
  return new Map(tenants.map((t) => [t.id, t]));
}

/** GET /audit: one page of the caller's events, newest first unless `sort=asc`. */
export async function listAuditEvents(db: Db, actor: Actor, query: AuditListQueryInput): Promise<AuditPage> {
  const where = whereOf(actor, query);
  const [total, rows] = await Promise.all([
    db.auditEvent.count({ where }),
    db.auditEvent.findMany({
      where,
      orderBy: orderOf(query),
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
  ]);
  const names = await tenantNames(
    db,
    rows.map((r) => r.tenantId),
  );
  return {
    events: rows.map((row) => presentAuditEvent(row, names)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

const iso = (date: Date | null) => (date ? date.toISOString() : '');

/**
 * GET /audit/export: the filtered events as CSV (at most AUDIT_EXPORT_MAX, in the list's order), as
 * Excel opens it right: a UTF-8 byte-order mark, CRLF, every cell through the formula guard.
 */
export async function exportAuditEvents(
  db: Db,
  actor: Actor,
  filters: AuditFiltersInput,
  now = new Date(),
): Promise<{ filename: string; csv: string }> {
  const where = whereOf(actor, filters);
  const rows = await db.auditEvent.findMany({ where, orderBy: orderOf(filters), take: AUDIT_EXPORT_MAX });
  const names = await tenantNames(
    db,
    rows.map((r) => r.tenantId),
  );
  const cells = rows.map((row) => {
    const event = presentAuditEvent(row, names);
    return [
      event.appliedAt,
      event.tenant.name ?? String(event.tenant.id),
      event.actor.name,
      event.actor.email,
      event.action,
      event.target.id ? `${event.target.type} ${event.target.id}` : event.target.type,
      JSON.stringify(event.changes),
      event.offline ? 'yes' : 'no',
      iso(row.queuedAt),
      event.requestId ?? '',
    ].map((cell) => safeCell(cell));
  });
  const csv = `\uFEFF${Papa.unparse([[...AUDIT_CSV_HEADER], ...cells], { newline: '\r\n' })}\r\n`;
  return { filename: `audit-log-${now.toISOString().slice(0, 10)}.csv`, csv };
}
