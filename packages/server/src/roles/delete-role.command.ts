import { MSG } from '@helix/shared';
import type { Db } from '../db.ts';
import { withTransaction } from '../db/transaction.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorize } from './role.policy.ts';
import { presentRole, roleInclude } from './role.presenter.ts';

/**
 * POST /role/delete: a custom role goes, and with it every assignment of it (its holders keep their
 * other roles; the change applies to their next request). Built-in roles are refused. With
 * `expectedVersion` (If-Match), a role edited since answers 409 VERSION_CONFLICT with the role now.
 */
export async function deleteRole(
  db: Db,
  actor: Actor,
  roleId: number,
  expectedVersion?: number,
): Promise<{ message: string }> {
  authorize(actor, 'delete');
  const role = await db.role.findUnique({ where: { id: roleId }, include: roleInclude });
  if (!role) throw AppError.notFound();
  authorize(actor, 'delete', role);
  const conflict = () => AppError.versionConflict(presentRole(role, actor));
  if (expectedVersion !== undefined && expectedVersion !== role.version) throw conflict();
  // In a transaction: an Idempotency-Key request commits the delete with its stored answer.
  await withTransaction(db, async (tx) => {
    const { count } = await tx.role.deleteMany({
      where: { id: role.id, ...(expectedVersion !== undefined ? { version: expectedVersion } : {}) },
    });
    if (count === 0) {
      const now = await tx.role.findUnique({ where: { id: role.id }, include: roleInclude });
      throw now ? AppError.versionConflict(presentRole(now, actor)) : AppError.notFound();
    }
  });
  return { message: MSG.roleDeleted };
}
