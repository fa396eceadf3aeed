import { MSG } from '@helix/shared';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { storageOf } from '../storage/create-storage.ts';
import type { StoredObject } from '../storage/storage.ts';
import { verifyModelFile } from './signing.ts';

/**
 * GET /files/models/:id: a model's .glb for a signed, short-lived URL (the viewer gets one with each
 * lookup). A missing, expired or forged signature is a 403; a deleted model or a missing file a 404.
 */
export async function openModelFile(
  deps: ServerDeps,
  id: number,
  signature: { exp: number; sig: string } | null,
): Promise<StoredObject> {
  if (!signature || !verifyModelFile(deps.config.SIGNING_SECRET, id, signature.exp, signature.sig)) {
    throw AppError.forbidden(MSG.fileLinkInvalid);
  }
  const model = await deps.db.model.findFirst({ where: { id, deletedAt: null }, select: { fileKey: true } });
  const object = model?.fileKey ? await storageOf(deps).get(model.fileKey) : null;
  if (!object) throw AppError.notFound();
  return object;
}
