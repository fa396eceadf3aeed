import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import type { Storage, StoredObject } from '../storage/storage.ts';
import { authorizeSupport } from './support.policy.ts';

/**
 * GET /support/:id/screenshot (platform admins): the request's checked screenshot (WebP). Screenshots
 * are never on the public image path: they may show a customer's private data.
 */
export async function openSupportScreenshot(
  deps: { db: Db; storage: Storage },
  actor: Actor,
  id: number,
): Promise<StoredObject> {
  authorizeSupport(actor, 'list');
  const row = await deps.db.supportRequest.findUnique({ where: { id }, select: { screenshotKey: true } });
  const object = row?.screenshotKey ? await deps.storage.get(row.screenshotKey) : null;
  if (!object) throw AppError.notFound();
  return object;
}
