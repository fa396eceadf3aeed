import { MSG } from '@helix/shared';
import { withTransaction } from '../db/transaction.ts';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorizeCatalogue, visibleTo } from './model.policy.ts';

/**
 * POST /model/delete: a soft delete (deletedAt). The model's URL name is freed for a new model: it gets
 * a suffix ('--deleted-<id>') that no live name can have (live names never hold '--'). Its views,
 * files and links stay; the links stop working because the model is deleted.
 */
export async function deleteModel(deps: ServerDeps, actor: Actor, id: number): Promise<{ message: string }> {
  authorizeCatalogue(actor, 'delete');
  const model = await deps.db.model.findFirst({
    where: { id, ...visibleTo(actor) },
    select: { id: true, urlModelName: true },
  });
  if (!model) throw AppError.notFound();
  // In a transaction: its audit event commits with it (audit/audit-context.ts).
  await withTransaction(deps.db, async (tx) => {
    const updated = await tx.model.updateMany({
      where: { id: model.id, deletedAt: null },
      data: {
        deletedAt: new Date(),
        urlModelName: `${model.urlModelName}--deleted-${model.id}`.slice(0, 200),
      },
    });
    if (updated.count === 0) throw AppError.notFound();
  });
  return { message: MSG.modelDeleted };
}
