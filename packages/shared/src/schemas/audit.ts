import { z } from 'zod';
import { MSG } from '../messages.ts';
import { MAX_ID } from './ids.ts';

/**
 * The audit log (issue 18 point 11, docs/audit-log.md): every change an owner, admin or user makes
 * through a tenant call, with who, when, what and whether it was queued offline. GET /audit and
 * GET /audit/export (tenant calls): a school's owner sees the school's events, a platform admin every
 * tenant's (optionally one, `tenant`).
 */

/**
 * Sent by the offline outbox when it replays a queued edit: when the edit was queued, as an ISO time.
 * An edit sent at once (online) has no such header and is recorded as not offline. The device's clock
 * may be off: a time ahead of the server's is recorded as the server's (applied at once), never refused.
 */
export const QUEUED_AT_HEADER = 'X-Queued-At';

/** The stable action names, grouped by what they change. */
export const AUDIT_ACTIONS = [
  'user.invite',
  'user.invite-resend',
  'user.bulk-invite',
  'user.delete',
  'user.add',
  'role.create',
  'role.update',
  'role.delete',
  'role.assign',
  'branding.update',
  'profile.update',
  'model.create',
  'model.update',
  'model.delete',
  'link.create',
  'link.revoke',
  'link.expiry',
  'link.hosts',
  'subscription.create',
  'subscription.change',
  'subscription.change-plan',
  'subscription.seats',
  'subscription.checkout',
  'subscription.cancel',
  'subscription.cancel-plan',
  'subscription.payment',
  'subscription.payment-update',
  'views.purchase',
  'payment-method.setup',
  'payment-method.update',
  'payment-method.confirm',
  'payment-method.cancel',
  'support.status',
  'lti.platform.create',
  'lti.platform.update',
  'lti.platform.delete',
  'lti.key.rotate',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Rows per page of GET /audit; the export stops at AUDIT_EXPORT_MAX rows (newest first). */
export const AUDIT_PAGE_SIZE_MAX = 100;
export const AUDIT_EXPORT_MAX = 50_000;

const isoTime = z.iso.datetime({ offset: true, error: MSG.auditDateInvalid });

/** The filters (query string), shared by the list, the export and the page's form. */
export const AuditFilters = z.strictObject({
  action: z.enum(AUDIT_ACTIONS, { error: MSG.auditActionInvalid }).optional(),
  /** Part of the actor's name or e-mail (case-insensitive). */
  actor: z.string().trim().max(200).optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  /** 'true': only edits that were queued offline. */
  offline: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
  /** Platform admins only: one tenant's events (its id). Ignored for anyone else. */
  tenant: z.coerce.number().int().min(1).max(MAX_ID).optional(),
  sort: z.enum(['asc', 'desc']).default('desc'),
});
export type AuditFilters = z.input<typeof AuditFilters>;
export type AuditFiltersInput = z.output<typeof AuditFilters>;

export const AuditListQuery = AuditFilters.extend({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(AUDIT_PAGE_SIZE_MAX).default(20),
});
export type AuditListQuery = z.input<typeof AuditListQuery>;
export type AuditListQueryInput = z.output<typeof AuditListQuery>;

/** One event as the API presents it. */
export const AuditEventView = z.object({
  id: z.string(),
  tenant: z.object({
    id: z.number().int(),
    name: z.string().nullable(),
    domainPrefix: z.string().nullable(),
  }),
  actor: z.object({ id: z.number().int().nullable(), name: z.string(), email: z.string() }),
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string() }),
  changes: z.unknown(),
  offline: z.boolean(),
  queuedAt: z.string().nullable(),
  appliedAt: z.string(),
  requestId: z.string().nullable(),
});
export type AuditEventView = z.infer<typeof AuditEventView>;

export const AuditPage = z.object({
  events: z.array(AuditEventView),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AuditPage = z.infer<typeof AuditPage>;

/** The CSV export's columns, in order (the server writes them; the page names the file). */
export const AUDIT_CSV_HEADER = [
  'Time (UTC)',
  'Tenant',
  'Actor',
  'Actor e-mail',
  'Action',
  'Target',
  'Changes',
  'Offline',
  'Queued at (UTC)',
  'Request id',
] as const;
