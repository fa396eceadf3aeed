import type { SupportRequestView, SupportStatusUpdate } from '@helix/shared/schemas/support';
import type { Db } from '../db.ts';
import { withTransaction } from '../db/transaction.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { presentSupportRequest, supportRequestInclude } from './support-request.presenter.ts';
import { authorizeSupport } from './support.policy.ts';

/**
 * POST /support/:id/status (platform admins): open, answered or closed, in any direction (a closed
 * request can be reopened). A missing request is a 404.
 */
export async function updateSupportStatus(
  db: Db,
  actor: Actor,
  id: number,
  input: SupportStatusUpdate,
): Promise<SupportRequestView> {
  authorizeSupport(actor, 'update');
  const found = await db.supportRequest.findUnique({ where: { id }, select: { id: true } });
  if (!found) throw AppError.notFound();
  // In a transaction: its audit event commits with it (audit/audit-context.ts).
  const row = await withTransaction(db, (tx) =>
    tx.supportRequest.update({
      where: { id },
      data: { status: input.status },
      include: supportRequestInclude,
    }),
  );
  return presentSupportRequest(row);
}
