import type { BulkInviteBatchView } from '@helix/shared/schemas/invite';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { ownTenant } from '../tenants/tenant-scope.ts';
import { authorizeInvite } from './invite.policy.ts';
import { shownEmail } from './invite-elsewhere.ts';

const MAX_FAILURES_LISTED = 1000;

/**
 * GET /user/bulk-invite/:id: how far a batch has gone (the page polls it, so the progress bar survives
 * a reload). Progress is counted from the invitations' sent and failed markers, which the worker writes
 * one per e-mail; the worker also marks the batch done with its last row (send-invite.ts), so a batch
 * nobody watches still finishes. Reading changes nothing.
 */
export async function bulkInviteBatch(db: Db, actor: Actor, id: number): Promise<BulkInviteBatchView> {
  authorizeInvite(actor, 'viewBatch');
  const batch = await db.bulkInviteBatch.findFirst({ where: { id, ...ownTenant(actor) } });
  if (!batch) throw AppError.notFound();
  const [sent, failed] = await Promise.all([
    db.invite.count({ where: { batchId: batch.id, sentAt: { not: null } } }),
    db.invite.count({ where: { batchId: batch.id, failedAt: { not: null } } }),
  ]);
  const failures =
    failed === 0
      ? []
      : await db.invite.findMany({
          where: { batchId: batch.id, failedAt: { not: null } },
          select: { failReason: true, user: { select: { name: true, email: true, elsewhereEmail: true } } },
          orderBy: { id: 'asc' },
          take: MAX_FAILURES_LISTED,
        });
  const { status, finishedAt } = batch;
  return {
    id: batch.id,
    status,
    total: batch.total,
    sent,
    failed,
    failures: failures.map((f) => ({
      name: f.user.name,
      email: shownEmail(f.user),
      reason: f.failReason ?? '',
    })),
    createdAt: batch.createdAt.toISOString(),
    finishedAt: finishedAt?.toISOString() ?? null,
  };
}
