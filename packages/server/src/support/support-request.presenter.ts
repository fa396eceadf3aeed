import type { SupportRequestView } from '@helix/shared/schemas/support';
import { supportTargetLabel } from '@helix/shared/support';
import type { Prisma } from '../db.ts';

/** What the presenter reads: the request with its tenant and user. */
export const supportRequestInclude = {
  tenant: { select: { id: true, name: true, domainPrefix: true } },
  user: { select: { id: true, name: true, email: true } },
} satisfies Prisma.SupportRequestInclude;

export type SupportRequestRecord = Prisma.SupportRequestGetPayload<{ include: typeof supportRequestInclude }>;

/** The only way a support request leaves the API (the storage key of the screenshot never does). */
export function presentSupportRequest(row: SupportRequestRecord): SupportRequestView {
  return {
    id: row.id,
    subject: row.subject,
    message: row.message,
    status: row.status,
    priority: row.priority,
    target_hours: row.targetHours,
    target: supportTargetLabel(row.targetHours),
    plan: row.planName,
    tenant: { id: row.tenant.id, name: row.tenant.name, domain_prefix: row.tenant.domainPrefix },
    user: { id: row.user.id, name: row.user.name, email: row.user.email },
    has_screenshot: row.screenshotKey !== null,
    mailed: row.supportMailSentAt !== null && row.confirmationMailSentAt !== null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
