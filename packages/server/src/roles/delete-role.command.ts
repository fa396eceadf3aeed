import { MSG } from '@helix/shared';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorize } from './role.policy.ts';

/**
 * POST /role/delete: a custom role goes, and with it every assignment of it (its holders keep their
 * other roles; the change applies to their next request). Built-in roles are refused.
 */
export async function deleteRole(db: Db, actor: Actor, roleId: number): Promise<{ message: string }> {
  authorize(actor, 'delete');
  const role = await db.role.findUnique({ where: { id: roleId }, select: { id: true, builtIn: true } });
  if (!role) throw AppError.notFound();
  authorize(actor, 'delete', role);
  await db.role.delete({ where: { id: role.id } });
  return { message: MSG.roleDeleted };
}
