import { MSG } from '@helix/shared';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { verifyModelFile } from './signing.ts';

/**
 * GET /files/models/:id: the storage key of a model's .glb for a signed, short-lived URL (the viewer
 * gets one with each lookup; an offline copy gets one when it is issued). A missing, expired or forged
 * signature is a 403; a deleted model a 404. The route streams the object, ranges included.
 */
export async function authorizeModelFile(
  deps: ServerDeps,
  id: number,
  signature: { exp: number; sig: string } | null,
): Promise<string> {
  if (!signature || !verifyModelFile(deps.config.SIGNING_SECRET, id, signature.exp, signature.sig)) {
    throw AppError.forbidden(MSG.fileLinkInvalid);
  }
  const model = await deps.db.model.findFirst({ where: { id, deletedAt: null }, select: { fileKey: true } });
  if (!model?.fileKey) throw AppError.notFound();
  return model.fileKey;
}
